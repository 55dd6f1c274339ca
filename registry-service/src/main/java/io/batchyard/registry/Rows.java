package io.batchyard.registry;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Reads the column values of native queries ({@code Object[]} rows: bigint as Long, int as Integer, smallint as Short,
 * timestamptz as OffsetDateTime, uuid as UUID) and writes the one kind of value the driver cannot take as is.
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

    public static short toShort(Object value) {
        return ((Number) value).shortValue();
    }

    public static boolean toBoolean(Object value) {
        return (Boolean) value;
    }

    public static String string(Object value) {
        return (String) value;
    }

    public static UUID uuid(Object value) {
        return (UUID) value;
    }

    public static OffsetDateTime timestamp(Object value) {
        return (OffsetDateTime) value;
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
