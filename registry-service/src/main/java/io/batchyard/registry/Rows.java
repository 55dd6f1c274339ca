package io.batchyard.registry;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAccessor;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Reads and writes the column values of native queries. The reactive driver may hand a column back as any Java type
 * its codec chose (an int column as Integer or Long, a timestamptz as OffsetDateTime or Instant), so the repositories
 * convert through these instead of casting.
 */
public final class Rows {

    private Rows() {
    }

    public static long toLong(Object value) {
        return ((Number) value).longValue();
    }

    public static Long nullableLong(Object value) {
        return value == null ? null : toLong(value);
    }

    public static int toInt(Object value) {
        return ((Number) value).intValue();
    }

    public static Integer nullableInt(Object value) {
        return value == null ? null : toInt(value);
    }

    public static boolean toBoolean(Object value) {
        return (Boolean) value;
    }

    public static String string(Object value) {
        return value == null ? null : value.toString();
    }

    public static UUID uuid(Object value) {
        return value instanceof UUID u ? u : UUID.fromString(value.toString());
    }

    public static OffsetDateTime timestamp(Object value) {
        if (value == null || value instanceof OffsetDateTime) {
            return (OffsetDateTime) value;
        }
        if (value instanceof Instant i) {
            return i.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof Date d) {
            return d.toInstant().atOffset(ZoneOffset.UTC);
        }
        if (value instanceof LocalDateTime l) {
            return l.atOffset(ZoneOffset.UTC);
        }
        return OffsetDateTime.from((TemporalAccessor) value);
    }

    /**
     * A bigint[] column that the query selected as {@code array_to_string(column, ',')}: arrays are read as text so
     * that no array type mapping of the driver is involved.
     */
    public static List<Long> longs(Object commaSeparated) {
        String text = string(commaSeparated);
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(text.split(",")).map(Long::valueOf).toList();
    }

    /**
     * The PostgreSQL array literal of {@code values}, bound as text and cast to bigint[] by the statement
     * ({@code CAST(CAST(:ids AS text) AS bigint[])}: with the single cast the driver would expect a Number[]).
     */
    public static String arrayLiteral(List<Long> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(",", "{", "}"));
    }
}
