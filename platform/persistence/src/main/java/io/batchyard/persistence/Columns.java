package io.batchyard.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Column values of native query rows ({@code Object[]}) as the domain records want them, for every service's
 * repositories. A native query returns what the reactive PostgreSQL client decoded: numbers are widened here,
 * timestamps normalised to {@link OffsetDateTime}, and arrays, which the repositories select as text so that no array
 * mapping of the driver is involved, parsed back.
 */
public final class Columns {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Columns() {
    }

    public static long toLong(Object value) {
        return ((Number) value).longValue();
    }

    public static Long longOrNull(Object value) {
        return value == null ? null : toLong(value);
    }

    public static int toInt(Object value) {
        return ((Number) value).intValue();
    }

    public static Integer intOrNull(Object value) {
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
        return value == null || value instanceof UUID ? (UUID) value : UUID.fromString(value.toString());
    }

    /** A {@code timestamptz} column, whichever temporal type the driver chose for it. */
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
        return value == null || value instanceof LocalDate ? (LocalDate) value : LocalDate.parse(value.toString());
    }

    /** A {@code bigint[]} column selected as {@code array_to_string(column, ',')}. */
    public static List<Long> longs(Object commaSeparated) {
        String text = string(commaSeparated);
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(text.split(",")).map(Long::valueOf).toList();
    }

    /** A {@code text[]} column selected as {@code CAST(array_to_json(column) AS text)}. */
    public static List<String> strings(Object json) {
        try {
            return List.of(JSON.readValue((String) json, String[].class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not a JSON array of strings", e);
        }
    }

    /**
     * The PostgreSQL array literal of {@code values}, bound as text and cast by the statement
     * ({@code CAST(CAST(:ids AS text) AS bigint[])}: with a single cast the driver would expect a {@code Number[]}).
     */
    public static String arrayLiteral(List<Long> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(",", "{", "}"));
    }
}
