package io.vertx.pgclient;

/**
 * Stand-in with the reactive PostgreSQL client's class name and SQL-state accessor: that client is not on this
 * module's classpath, and the classifier must recognise its errors by name.
 */
public class PgException extends RuntimeException {

    private final String sqlState;

    public PgException(String message, String sqlState) {
        super(message);
        this.sqlState = sqlState;
    }

    public String getSqlState() {
        return sqlState;
    }
}
