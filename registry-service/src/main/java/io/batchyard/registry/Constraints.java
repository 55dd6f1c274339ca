package io.batchyard.registry;

import io.batchyard.api.CommonErrors;
import io.vertx.pgclient.PgException;

/**
 * Races that the services' own checks cannot close (two inserts of one unique name) end at a database constraint. The
 * shared problem mapper recognises only JDBC's SQLException; the reactive driver reports a PgException instead, so the
 * repositories turn it into the same problem the mapper answers for the JDBC exception: same code, same detail, and
 * never the SQL text.
 */
public final class Constraints {

    private Constraints() {
    }

    public static Throwable translate(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PgException pg && pg.getSqlState() != null) {
                return switch (pg.getSqlState()) {
                    case "23505" -> CommonErrors.CONFLICT.exception("A resource with the same key already exists");
                    case "23503" -> CommonErrors.CONFLICT.exception(
                            "The change references a missing resource or is still referenced");
                    case "23514", "23502", "22001" -> CommonErrors.INVALID_REQUEST.exception(
                            "The change violates a constraint of the data model");
                    case "22021", "22P05" -> CommonErrors.INVALID_REQUEST.exception(
                            "A value contains a character the database cannot store");
                    case "22003", "22008", "22P02", "22007" -> CommonErrors.INVALID_REQUEST.exception(
                            "A value is out of range or malformed");
                    case "40001", "40P01" -> CommonErrors.CONFLICT.exception("Concurrent change; retry the request");
                    default -> failure;
                };
            }
        }
        return failure;
    }
}
