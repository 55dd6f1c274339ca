package io.batchyard.api;

import java.sql.SQLException;
import java.util.Set;

/**
 * Tells a failure of infrastructure that will likely pass (the database or a called service down, unreachable, out of
 * connections, shutting down) from everything else. Such failures are answered 503 with {@code Retry-After}: the
 * request was fine and may be sent again. Recognises the JDBC driver and pool of today and the reactive PostgreSQL
 * client (by class name, so no dependency on it is needed).
 */
public final class Unavailability {

    /** Seconds a client should wait before retrying after a 503. */
    public static final int RETRY_AFTER_SECONDS = 5;

    /** 57P01-03: admin/crash shutdown, cannot connect now; 53300: too many connections; 08xxx: connection exceptions. */
    private static final Set<String> STATES = Set.of("57P01", "57P02", "57P03", "53300");

    private static final Set<String> CLOSED_CONNECTION_CLASSES = Set.of(
            "java.net.ConnectException",
            "java.net.NoRouteToHostException",
            "java.net.http.HttpConnectTimeoutException",
            "java.nio.channels.ClosedChannelException",
            "io.netty.channel.StacklessClosedChannelException",
            "io.netty.channel.ConnectTimeoutException",
            "io.vertx.core.http.ConnectionPoolTooBusyException",
            "io.vertx.sqlclient.ClosedConnectionException",
            "org.postgresql.util.PSQLException$ConnectionFailure");

    private Unavailability() {
    }

    public static boolean isUnavailable(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 20; t = t.getCause(), depth++) {
            if (unavailableState(sqlState(t))) {
                return true;
            }
            if (CLOSED_CONNECTION_CLASSES.contains(t.getClass().getName())) {
                return true;
            }
            String message = t.getMessage();
            if (message != null && closedConnectionMessage(t, message)) {
                return true;
            }
        }
        return false;
    }

    static boolean unavailableState(String state) {
        return state != null && (state.startsWith("08") || STATES.contains(state));
    }

    /** The SQL state of a JDBC exception or of the reactive client's {@code PgException}. */
    public static String sqlState(Throwable t) {
        if (t instanceof SQLException sql) {
            return sql.getSQLState();
        }
        if (t.getClass().getName().equals("io.vertx.pgclient.PgException")) {
            try {
                return (String) t.getClass().getMethod("getSqlState").invoke(t);
            } catch (ReflectiveOperationException e) {
                return null;
            }
        }
        return null;
    }

    private static boolean closedConnectionMessage(Throwable t, String message) {
        String name = t.getClass().getName();
        // Agroal reports an exhausted pool as a plain SQLException without state; the reactive client reports a
        // dropped connection as a VertxException.
        return (t instanceof SQLException && message.contains("acquisition timeout"))
                || (name.equals("io.vertx.core.VertxException") && message.contains("Connection is closed"))
                // A statement sent on a connection the database has just closed.
                || (name.equals("io.vertx.core.impl.NoStackTraceThrowable")
                        && message.startsWith("Connection is not active now"))
                || (t instanceof java.io.IOException && message.contains("Connection reset"))
                || (t instanceof SQLException && message.contains("This connection has been closed"));
    }
}
