package io.batchyard.persistence;

import jakarta.persistence.Tuple;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.time.LocalDate;
import java.time.OffsetDateTime;

/**
 * One result row of a native query, read by column name. The names are the SQL's column names or aliases as
 * PostgreSQL reports them (lower case unless quoted). Asking for a column the query did not select is a programming
 * error and fails with the column's name, never with an index.
 */
public final class Row {

    private final Tuple tuple;

    Row(Tuple tuple) {
        this.tuple = tuple;
    }

    /** The raw value the driver decoded, or null. */
    public Object get(String column) {
        try {
            return tuple.get(column);
        } catch (IllegalArgumentException e) {
            return tuple.get(column.toLowerCase(Locale.ROOT));
        }
    }

    public long getLong(String column) {
        return Columns.toLong(required(column));
    }

    public Long getLongOrNull(String column) {
        return Columns.longOrNull(get(column));
    }

    public int getInt(String column) {
        return Columns.toInt(required(column));
    }

    public Integer getIntOrNull(String column) {
        return Columns.intOrNull(get(column));
    }

    public short getShort(String column) {
        return Columns.toShort(required(column));
    }

    public boolean getBoolean(String column) {
        return Columns.toBoolean(required(column));
    }

    public Boolean getBooleanOrNull(String column) {
        Object value = get(column);
        return value == null ? null : Columns.toBoolean(value);
    }

    public String getString(String column) {
        Object value = get(column);
        return value == null ? null : value.toString();
    }

    public UUID getUuid(String column) {
        return Columns.uuid(get(column));
    }

    /** A {@code timestamptz} column, whichever temporal type the driver chose for it. */
    public OffsetDateTime getTime(String column) {
        return Columns.time(get(column));
    }

    public LocalDate getDate(String column) {
        return Columns.date(get(column));
    }

    public <E extends Enum<E>> E getEnum(String column, Class<E> type) {
        String name = getString(column);
        return name == null ? null : Enum.valueOf(type, name);
    }

    /**
     * A {@code bigint[]} (or {@code int[]}) column as a list; empty for null. Hibernate Reactive's native queries
     * cannot return an array column (it reads one as bytes), so the SQL selects it as
     * {@code array_to_string(column, ',') AS column}; a real array is taken as well.
     */
    public List<Long> getLongs(String column) {
        if (get(column) instanceof String text) {
            return Columns.longs(text);
        }
        List<Long> values = new ArrayList<>();
        for (Object element : elements(column)) {
            values.add(Columns.toLong(element instanceof String s ? Long.valueOf(s) : element));
        }
        return List.copyOf(values);
    }

    /**
     * A {@code text[]} column as a list; empty for null. Selected as {@code CAST(array_to_json(column) AS text) AS
     * column} (see {@link #getLongs}); a real array is taken as well.
     */
    public List<String> getStrings(String column) {
        if (get(column) instanceof String json) {
            return Columns.strings(json);
        }
        List<String> values = new ArrayList<>();
        for (Object element : elements(column)) {
            values.add(element == null ? null : element.toString());
        }
        return values.contains(null) ? java.util.Collections.unmodifiableList(values) : List.copyOf(values);
    }

    private List<Object> elements(String column) {
        Object value = get(column);
        if (value == null) {
            return List.of();
        }
        if (value instanceof java.sql.Array sqlArray) {
            try {
                value = sqlArray.getArray();
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException("column " + column + " is not a readable array", e);
            }
        }
        if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            List<Object> elements = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                elements.add(Array.get(value, i));
            }
            return elements;
        }
        if (value instanceof List<?> list) {
            return new ArrayList<>(list);
        }
        throw new IllegalStateException("column " + column + " is not an array but " + value.getClass().getName());
    }

    private Object required(String column) {
        Object value = get(column);
        if (value == null) {
            throw new IllegalStateException("column " + column + " is null");
        }
        return value;
    }
}
