package io.batchyard.cli;

import io.batchyard.cli.bdre.Bdre;
import io.batchyard.cli.bdre.BdreReader;
import io.batchyard.cli.bdre.HttpRegistry;
import io.batchyard.cli.bdre.Importer;
import io.batchyard.cli.bdre.Report;
import io.batchyard.client.BatchyardClient;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Bringing definitions that live in another system into the registry. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Import definitions from another system into registry-service.",
        subcommands = ImportCommands.FromBdre.class)
class ImportCommands {

    @Command(name = "bdre", mixinStandardHelpOptions = true,
            description = {"Import a BDRE installation from its metadata database (MySQL/MariaDB or PostgreSQL):",
                "bus domains as applications, processes and sub-processes as processes and steps, properties,",
                "templates, servers (their credentials encrypted by the registry with Batchyard's key) and process",
                "permissions as application permissions. BDRE process ids from 1 to 99,999,999 are kept; others get",
                "a registry id and keep BDRE's in their property bdre-import/bdre.process-id. Prints what it creates,",
                "changes or refuses (and why) per object; a second run changes nothing, and a run after a failure",
                "finishes the job. Exit status 1 when any object was refused."})
    static class FromBdre extends Call {
        @Option(names = "--jdbc-url", required = true, paramLabel = "URL",
                description = "the BDRE database: jdbc:mariadb://host:3306/bdre (jdbc:mysql:// too) or "
                        + "jdbc:postgresql://host/bdre")
        String jdbcUrl;

        @Option(names = "--user", paramLabel = "USER", description = "database user")
        String user;

        @Option(names = "--password-env", paramLabel = "VAR", description = "read the database password from this "
                + "environment variable")
        String passwordEnv;

        @Option(names = "--password", arity = "0", interactive = true, description = "prompt for the database password")
        char[] password;

        @Option(names = "--application", paramLabel = "NAME", description = "import only this BDRE bus domain "
                + "(repeatable; default: every one)")
        List<String> applications = new ArrayList<>();

        @Option(names = "--dry-run", description = "print what would be created, changed or refused; write nothing")
        boolean dryRun;

        @Override
        int run(BatchyardClient client, Output out) {
            Bdre.Snapshot snapshot;
            try (java.sql.Connection db = DriverManager.getConnection(driverUrl(jdbcUrl), user, password())) {
                db.setReadOnly(true);
                snapshot = new BdreReader(db).read();
            } catch (SQLException e) {
                spec.commandLine().getErr().println("import bdre: cannot read the BDRE database: " + e.getMessage());
                spec.commandLine().getErr().flush();
                return ExitCodes.UNAVAILABLE;
            }
            List<String> unknown = applications.stream().filter(name -> snapshot.busDomains().stream()
                    .noneMatch(d -> d.name().equals(name))).toList();
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("no BDRE bus domain named " + String.join(", ", unknown));
            }
            Report report = new Importer(new HttpRegistry(client.settings()), dryRun)
                    .run(snapshot.onlyDomains(applications));
            print(report, out);
            return report.refusedAny() ? ExitCodes.REFUSED : ExitCodes.OK;
        }

        /**
         * The URL for the drivers in the jar: a MySQL URL ({@code jdbc:mysql://}) goes to the MariaDB driver, which
         * speaks MySQL's protocol but takes that scheme only under its own name.
         */
        static String driverUrl(String url) {
            return url.startsWith("jdbc:mysql:") ? "jdbc:mariadb:" + url.substring("jdbc:mysql:".length()) : url;
        }

        private String password() {
            if (passwordEnv != null) {
                String value = Connection.environment.apply(passwordEnv);
                if (value == null) {
                    throw new IllegalArgumentException("environment variable " + passwordEnv + " is not set");
                }
                return value;
            }
            return password == null ? null : new String(password);
        }

        private static void print(Report report, Output out) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("dryRun", report.dryRun());
            json.put("objects", report.lines().stream().map(l -> {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("action", l.kind().word());
                o.put("object", l.object());
                o.put("detail", l.detail() == null || l.detail().isEmpty() ? null : l.detail());
                return o;
            }).toList());
            json.put("mapping", report.mapping());
            Map<String, Integer> counts = new LinkedHashMap<>();
            report.counts().forEach((k, v) -> counts.put(k.word(), v));
            json.put("counts", counts);
            out.json(json);
            report.lines().forEach(l -> out.line(l.text()));
            if (!report.mapping().isEmpty()) {
                out.line("ids (BDRE -> Batchyard):");
                report.mapping().forEach(m -> out.line("  " + m.text()));
            }
            out.line(report.summary());
        }
    }
}
