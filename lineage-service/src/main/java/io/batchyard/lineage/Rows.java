package io.batchyard.lineage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * Column values of native query rows as the records want them. A native query without a result type returns what the
 * reactive PostgreSQL client decoded, so numbers are widened and arrays and timestamps normalised here, in one place.
 */
public final class Rows {

    private static final ObjectMapper JSON = new ObjectMapper();

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

    /** A {@code TEXT[]} column selected as {@code array_to_json(column)::text}. */
    public static List<String> strings(Object json) {
        try {
            return List.of(JSON.readValue((String) json, String[].class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not a JSON array of strings", e);
        }
    }
}
