package io.batchyard.persistence;

import java.util.ArrayList;
import java.util.List;

/**
 * The WHERE clause of a list's optional filters, built once instead of {@code CAST(:x AS t) IS NULL OR ...} in every
 * statement: a filter whose value is absent does not constrain the rows, and its parameter is not bound at all.
 * Conditions are ANDed in the order given. A parameter is named after its column ({@code p.table_id} binds
 * {@code :p_table_id}).
 */
public final class Where {

    private final List<String> conditions = new ArrayList<>();
    private final Params params = Params.none();

    private Where() {
    }

    public static Where all() {
        return new Where();
    }

    /** {@code column = value} when value is not null. */
    public Where eq(String column, Object value) {
        return value == null ? this : condition(column + " = :" + parameter(column), parameter(column), value);
    }

    /** {@code column >= value} when value is not null. */
    public Where atLeast(String column, Object value) {
        String name = parameter(column) + "_from";
        return value == null ? this : condition(column + " >= :" + name, name, value);
    }

    /** {@code column < value} when value is not null. */
    public Where before(String column, Object value) {
        String name = parameter(column) + "_to";
        return value == null ? this : condition(column + " < :" + name, name, value);
    }

    /** A condition of the caller's own, with the parameters it names. */
    public Where and(String condition, Params conditionParams) {
        conditions.add(condition);
        params.and(conditionParams);
        return this;
    }

    /** A condition without parameters. */
    public Where and(String condition) {
        conditions.add(condition);
        return this;
    }

    /** {@code " WHERE a AND b"}, or an empty string when nothing constrains the rows. */
    public String sql() {
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    public Params params() {
        return params;
    }

    private Where condition(String condition, String name, Object value) {
        conditions.add(condition);
        params.and(name, value);
        return this;
    }

    private static String parameter(String column) {
        return column.replace('.', '_');
    }
}
