package io.batchyard.persistence;

/**
 * {@code LIMIT}/{@code OFFSET} of a list, written once: repositories append {@link #CLAUSE} after their ORDER BY (a
 * page without an order is not stable) and bind {@link #params()}.
 */
public record Paging(int limit, int offset) {

    public static final String CLAUSE = " LIMIT :limit OFFSET :offset";

    public Paging {
        if (limit < 1 || offset < 0) {
            throw new IllegalArgumentException("limit must be positive and offset not negative");
        }
    }

    public Params params() {
        return Params.of("limit", limit).and("offset", offset);
    }
}
