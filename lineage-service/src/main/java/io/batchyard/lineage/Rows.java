package io.batchyard.lineage;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * Column values of native query rows as the records want them. A native query without a result type returns what the
 * reactive PostgreSQL client decoded, so numbers are widened here and arrays and timestamps normalised in one place.
 */
public final class Rows {

    private Rows() {
    }

    public static long longValue(Object value) {
        return ((Number) value).longValue();
    }

    public static Long nullableLong(Object value) {
        return value == null ? null : longValue(value);
    }

    public static Integer nullableInt(Object value) {
        return value == null ? null : ((Number) value).intValue();
    }

    public static boolean bool(Object value) {
        return (Boolean) value;
    }

    public static UUID uuid(Object value) {
        return value instanceof UUID id ? id : UUID.fromString(value.toString());
    }

    public static OffsetDateTime time(Object value) {
        if (value == null || value instanceof OffsetDateTime) {
            return (OffsetDateTime) value;
        }
        return ((Instant) value).atOffset(ZoneOffset.UTC);
    }

    /** A {@code TEXT[]} column. */
    public static List<String> strings(Object value) {
        if (value instanceof Collection<?> c) {
            return c.stream().map(String::valueOf).toList();
        }
        return Arrays.stream((Object[]) value).map(String::valueOf).toList();
    }
}
