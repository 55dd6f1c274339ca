package io.vertx.sqlclient;

/** Stand-in with the reactive SQL client's class name for a lost connection (that client is not on the classpath). */
public class ClosedConnectionException extends RuntimeException {

    public ClosedConnectionException(String message) {
        super(message);
    }
}
