package io.batchyard.persistence;

/**
 * Turns one result row into a domain record, reading every column by its name (the SQL's column or alias). Written
 * once per row type, next to the repository that selects it.
 */
@FunctionalInterface
public interface RowMapper<T> {

    T map(Row row);
}
