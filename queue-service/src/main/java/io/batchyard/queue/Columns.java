package io.batchyard.queue;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Values of native query rows, as the repositories read them: the driver hands out numbers, times and dates in more
 * than one Java type depending on the column, so each repository converts through these instead of casting.
 */
public final class Columns {

    private Columns() {
    }

    public static long toLong(Object value) {
        return ((Number) value).longValue();
    }

    public static Long longOrNull(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }

    public static int toInt(Object value) {
        return ((Number) value).intValue();
    }

    public static OffsetDateTime time(Object value) {
        if (value == null || value instanceof OffsetDateTime) {
            return (OffsetDateTime) value;
        }
        if (value instanceof Instant i) {
            return i.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof ZonedDateTime z) {
            return z.toOffsetDateTime();
        }
        if (value instanceof LocalDateTime l) {
            return l.atOffset(ZoneOffset.UTC);
        }
        return ((java.util.Date) value).toInstant().atOffset(ZoneOffset.UTC);
    }

    public static LocalDate date(Object value) {
        return value instanceof LocalDate d ? d : LocalDate.parse(value.toString());
    }
}
