package io.batchyard.execution;

import java.time.OffsetDateTime;

/**
 * Reads the columns of a native query's {@code Object[]} row: ids and counts as whichever {@link Number} the column
 * type gives, {@code timestamptz} as the {@link OffsetDateTime} the reactive client returns.
 */
public final class Columns {

    private Columns() {
    }

    public static Long longOrNull(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }

    public static Integer intOrNull(Object value) {
        return value == null ? null : ((Number) value).intValue();
    }

    public static OffsetDateTime time(Object value) {
        return (OffsetDateTime) value;
    }
}
