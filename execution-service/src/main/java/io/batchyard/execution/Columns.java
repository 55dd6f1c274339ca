package io.batchyard.execution;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Reads the columns of a native query's {@code Object[]} row, whatever numeric or time type the driver chose. */
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
        if (value == null || value instanceof OffsetDateTime) {
            return (OffsetDateTime) value;
        }
        if (value instanceof Instant i) {
            return i.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof LocalDateTime l) {
            return l.atOffset(ZoneOffset.UTC);
        }
        throw new IllegalArgumentException("not a timestamp: " + value.getClass().getName());
    }
}
