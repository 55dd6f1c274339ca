package io.batchyard.persistence;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code :name} parameters of one statement. Unlike {@code Map.of}, a value may be null: a parameter that may be
 * null is written {@code CAST(:x AS type)} in the SQL, because PostgreSQL cannot infer the type of an untyped null.
 */
public final class Params {

    private final Map<String, Object> values = new LinkedHashMap<>();

    private Params() {
    }

    public static Params none() {
        return new Params();
    }

    public static Params of(String name, Object value) {
        return new Params().and(name, value);
    }

    public Params and(String name, Object value) {
        values.put(name, value);
        return this;
    }

    /** Every parameter of {@code other} as well (a filter's or a page's). */
    public Params and(Params other) {
        values.putAll(other.values);
        return this;
    }

    Map<String, Object> values() {
        return Collections.unmodifiableMap(values);
    }
}
