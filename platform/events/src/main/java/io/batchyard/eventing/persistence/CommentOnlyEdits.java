package io.batchyard.eventing.persistence;

import io.quarkus.flyway.FlywayConfigurationCustomizer;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jboss.logging.Logger;

/**
 * Lets a database migrated before a comment-only edit of one of its migrations start with the edited file.
 *
 * <p>Flyway records each applied migration's checksum and refuses to start when a file no longer matches it, which
 * guards against a schema that differs from its scripts. Rewording a migration's comments changes the checksum but
 * not the schema. A service lists such edits in {@code batchyard.flyway.comment-only-edits}, each as
 * {@code <script>:<checksum before>:<checksum after>}; just before Flyway validates, this sets the recorded checksum
 * of that script from exactly the "before" value to the "after" value. Any other mismatch (a changed statement, a
 * checksum nobody listed) still stops the service, as Flyway intends.
 */
@ApplicationScoped
public class CommentOnlyEdits implements FlywayConfigurationCustomizer {

    private static final Logger LOG = Logger.getLogger(CommentOnlyEdits.class);

    /** One reworded migration: its file name (without its folder) and its checksum before and after the edit. */
    public record Edit(String script, int before, int after) {

        /** Parses {@code <script>:<before>:<after>}. */
        public static Edit parse(String text) {
            String[] parts = text.trim().split(":");
            if (parts.length != 3 || parts[0].isBlank()) {
                throw new IllegalArgumentException("a comment-only edit is <script>:<checksum before>:<checksum after>,"
                        + " not " + text);
            }
            return new Edit(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        }
    }

    private final List<Edit> edits;

    public CommentOnlyEdits(
            @ConfigProperty(name = "batchyard.flyway.comment-only-edits") Optional<List<String>> edits) {
        this.edits = edits.orElse(List.of()).stream().map(Edit::parse).toList();
    }

    @Override
    public void customize(FluentConfiguration configuration) {
        register(configuration, edits);
    }

    /** Adds the callback that applies {@code edits} to {@code configuration}, keeping the callbacks it has. */
    public static void register(FluentConfiguration configuration, List<Edit> edits) {
        if (edits.isEmpty()) {
            return;
        }
        List<Callback> callbacks = new ArrayList<>(Arrays.asList(configuration.getCallbacks()));
        callbacks.add(new Realign(edits));
        configuration.callbacks(callbacks.toArray(Callback[]::new));
    }

    /** The callback: before validation, the listed checksums in the schema history table are replaced. */
    static final class Realign implements Callback {

        private final List<Edit> edits;

        Realign(List<Edit> edits) {
            this.edits = List.copyOf(edits);
        }

        @Override
        public boolean supports(Event event, Context context) {
            return event == Event.BEFORE_VALIDATE;
        }

        @Override
        public boolean canHandleInTransaction(Event event, Context context) {
            return true;
        }

        @Override
        public void handle(Event event, Context context) {
            Connection connection = context.getConnection();
            String table = historyTable(context);
            try {
                if (!exists(connection, table)) {
                    return; // a new database: nothing was recorded yet
                }
                // Flyway records the script with its path below the location (db/migration/V1__x.sql on the class
                // path); the edit names the file.
                try (PreparedStatement update = connection.prepareStatement("UPDATE " + table
                        + " SET checksum = ? WHERE regexp_replace(script, '^.*/', '') = ? AND checksum = ?")) {
                    for (Edit edit : edits) {
                        update.setInt(1, edit.after());
                        update.setString(2, edit.script());
                        update.setInt(3, edit.before());
                        if (update.executeUpdate() > 0) {
                            LOG.infof("migration %s: recorded checksum %d replaced by %d (its comments were reworded)",
                                    edit.script(), edit.before(), edit.after());
                        }
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot update the checksums of reworded migrations in " + table, e);
            }
        }

        @Override
        public String getCallbackName() {
            return "batchyard-comment-only-edits";
        }

        /**
         * The history table as Flyway names it: in its default schema when one is named; otherwise unqualified, which
         * finds it because Flyway points the connection's search path at the schema it keeps the table in (the first
         * of the managed schemas, or the current one).
         */
        private static String historyTable(Context context) {
            String schema = context.getConfiguration().getDefaultSchema();
            String table = quote(context.getConfiguration().getTable());
            return schema == null || schema.isBlank() ? table : quote(schema) + "." + table;
        }

        private static boolean exists(Connection connection, String table) throws SQLException {
            try (PreparedStatement query = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
                query.setString(1, table);
                try (ResultSet result = query.executeQuery()) {
                    return result.next() && result.getBoolean(1);
                }
            }
        }

        private static String quote(String identifier) {
            return "\"" + identifier.replace("\"", "\"\"") + "\"";
        }
    }
}
