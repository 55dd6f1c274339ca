package io.batchyard.lineage.column;

/**
 * One end of a column-lineage edge as one statement sees it: a column of a (base or temporary) table, a function
 * application, or a constant. Function and constant endpoints carry an occurrence number, because two calls of
 * {@code upper} in one statement are two different nodes.
 */
public record Endpoint(Kind kind, String table, String name, boolean temp, int occurrence) {

    public enum Kind { COLUMN, FUNCTION, CONSTANT }

    public static Endpoint column(String table, boolean temp, String column) {
        return new Endpoint(Kind.COLUMN, table, column, temp, 0);
    }

    public static Endpoint function(String name, int occurrence) {
        return new Endpoint(Kind.FUNCTION, null, name, false, occurrence);
    }

    public static Endpoint constant(String value, int occurrence) {
        return new Endpoint(Kind.CONSTANT, null, value, false, occurrence);
    }

    /** Corpus notation: {@code db.t.c}, {@code temp:alias.c}, {@code fn:upper}, {@code const:'x'}. */
    public String notation() {
        return switch (kind) {
            case COLUMN -> (temp ? "temp:" : "") + table + "." + name;
            case FUNCTION -> "fn:" + name;
            case CONSTANT -> "const:" + name;
        };
    }
}
