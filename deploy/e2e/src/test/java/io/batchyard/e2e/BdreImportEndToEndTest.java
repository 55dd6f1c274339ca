package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.MariaDbServer;
import io.batchyard.teststack.identity.Identity;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code batchyard import bdre} from the built jar (through {@code bin/batchyard}, as an operator runs it) against the
 * shared stack, for a BDRE metadata database on MariaDB and on PostgreSQL, each loaded with the fixture of
 * {@code client/cli/src/test/resources/bdre}: the dry run writes nothing, the real run's result read back through the
 * registry's API equals the oracle below (written by hand from the fixture), a second run reports no change for
 * every object, and no credential ever appears in what the command prints.
 */
class BdreImportEndToEndTest {

    private static final Path FIXTURES = Path.of("..", "..", "client", "cli", "src", "test", "resources", "bdre")
            .toAbsolutePath().normalize();
    private static Stack stack;
    private static String token;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
        token = Identity.get().adminToken();
    }

    @Test
    void importsAnInstallationOnMariaDb() throws Exception {
        MariaDbServer.Endpoint server;
        try {
            server = Infrastructure.get().mariadb();
        } catch (MariaDbServer.Unavailable e) {
            System.out.println("[BdreImportEndToEndTest] MariaDB part skipped: " + e.getMessage());
            assumeTrue(false, e.getMessage());
            return;
        }
        importsAndReadsBack(server.database("bdre"), "schema-mariadb.sql", "71", "maria");
    }

    @Test
    void importsAnInstallationOnPostgreSql() throws Exception {
        importsAndReadsBack(Infrastructure.get().database("bdre"), "schema-postgresql.sql", "72", "pg");
    }

    private void importsAndReadsBack(Infrastructure.Database db, String schema, String prefix, String tag)
            throws Exception {
        load(db, prefix, tag, schema, "data.sql");
        Oracle oracle = new Oracle(prefix, tag);

        Run dry = importBdre(db, "--dry-run");
        assertThat(dry.status).as(dry.all()).isZero();
        assertThat(dry.out).contains("create application 'Retail Sales " + tag + "' (BDRE bus domain 2)")
                .contains("create step " + oracle.id("11") + " 'load orders'")
                .contains("create process (BDRE 3" + prefix + "000001) 'fraud-ingest'")
                .contains("skip process " + oracle.id("30") + " 'old-job': deleted in BDRE")
                .contains("no change server 'localhost' (BDRE server 123461)")
                .contains("dry run, nothing written: ");
        assertThat(applicationId("Retail Sales " + tag)).as("the dry run wrote no application").isNull();
        assertThat(applicationId("Fraud Watch " + tag)).isNull();
        assertThat(registry().get("/processes/" + oracle.id("10")).statusCode()).isEqualTo(404);
        assertThat(serverNamed("edge-" + tag)).as("the dry run wrote no server").isNull();

        Run real = importBdre(db);
        assertThat(real.status).as(real.all()).isZero();
        assertThat(real.out).doesNotContain("refuse ").contains("create server 'edge-" + tag + "'")
                .containsPattern("BDRE process 3" + prefix + "000001 -> \\d{9,} \\(outside 1-99,999,999\\)");
        oracle.matches();

        Run again = importBdre(db);
        assertThat(again.status).as(again.all()).isZero();
        List<String> objects = again.out.lines().takeWhile(l -> !l.startsWith("ids (BDRE")).toList();
        assertThat(objects).isNotEmpty().allMatch(l -> l.startsWith("no change ") || l.startsWith("skip "));
        assertThat(again.out).contains("0 created, 0 changed, ");
        oracle.matches();

        for (Run r : List.of(dry, real, again)) {
            assertThat(r.all()).doesNotContain("Server-Secret-" + tag + "-91").doesNotContain("Prop-Secret-" + tag);
        }
    }

    /** What the fixture must become, read back through the registry's API. */
    private final class Oracle {
        private final String prefix;
        private final String tag;

        Oracle(String prefix, String tag) {
            this.prefix = prefix;
            this.tag = tag;
        }

        long id(String suffix) {
            return Long.parseLong(prefix + suffix);
        }

        void matches() {
            Long retail = applicationId("Retail Sales " + tag);
            Long fraud = applicationId("Fraud Watch " + tag);
            assertThat(retail).isNotNull();
            assertThat(fraud).isNotNull();
            JsonPath r = registry().get("/applications/" + retail).then().statusCode(200).extract().jsonPath();
            assertThat(r.getString("description")).isEqualTo("Orders, returns and stock");
            assertThat(r.getString("owner")).isEqualTo("ana");
            assertThat(permissions(retail)).isEqualTo("ana|ROLE_ETL|7|6|4");
            assertThat(permissions(fraud)).isEqualTo("bo|null|7|4|0");

            // id, name, description, application, type, parent, canRecover, enqueuing, batch cut, next, workflow type
            assertThat(process(id("20"))).isEqualTo(row(id("20"), "orders-ingest", "Lands order files", retail, 1,
                    null, true, List.of(), null, List.of(id("21")), 1));
            assertThat(process(id("21"))).isEqualTo(row(id("21"), "orders-sftp", "Fetches order files", retail, 12,
                    id("20"), true, List.of(), null, List.of(id("20")), 0));
            assertThat(process(id("10"))).isEqualTo(row(id("10"), "sales-semantic", "Sales figures", retail, 2,
                    null, true, List.of(), null, List.of(id("11")), 1));
            assertThat(process(id("11"))).as("an empty BDRE description becomes the name")
                    .isEqualTo(row(id("11"), "load orders", "load orders", retail, 9, id("10"), true,
                            List.of(id("20")), "EOD", List.of(id("12"), id("13")), 0));
            assertThat(process(id("12"))).isEqualTo(row(id("12"), "fork a", "Cleans returns", retail, 22, id("10"),
                    true, List.of(), null, List.of(id("14")), 0));
            assertThat(process(id("13"))).isEqualTo(row(id("13"), "fork b", "Scores stock", retail, 25, id("10"),
                    true, List.of(), null, List.of(id("14")), 0));
            assertThat(process(id("14"))).isEqualTo(row(id("14"), "join", "Joins both", retail, 9, id("10"), false,
                    List.of(), null, List.of(id("10")), 0));
            assertThat(registry().get("/processes/" + id("30")).statusCode()).as("deleted in BDRE").isEqualTo(404);
            assertThat(registry().get("/processes?applicationId=" + retail).then().statusCode(200).extract()
                    .jsonPath().getList("items.id", Long.class)).containsExactlyInAnyOrder(id("10"), id("11"),
                    id("12"), id("13"), id("14"), id("20"), id("21"));

            JsonPath fraudProcesses = registry().get("/processes?applicationId=" + fraud).then().statusCode(200)
                    .extract().jsonPath();
            assertThat(fraudProcesses.getList("items.name", String.class))
                    .containsExactlyInAnyOrder("fraud-ingest", "fraud-sftp");
            long ingest = fraudProcesses.getLong("items.find { it.name == 'fraud-ingest' }.id");
            long sftp = fraudProcesses.getLong("items.find { it.name == 'fraud-sftp' }.id");
            assertThat(ingest).isGreaterThanOrEqualTo(100_000_000L);
            assertThat(sftp).isGreaterThanOrEqualTo(100_000_000L);
            assertThat(process(ingest)).isEqualTo(row(ingest, "fraud-ingest", "Reads card events", fraud, 1, null,
                    true, List.of(), null, List.of(sftp), 1));
            assertThat(process(sftp)).isEqualTo(row(sftp, "fraud-sftp", "Pulls the event files", fraud, 12, ingest,
                    true, List.of(), null, List.of(ingest), 0));

            // group | key | value (null: a secret) | description (null: none)
            assertThat(properties("/processes/" + id("11"))).containsExactlyInAnyOrder(
                    "query|hive query|SELECT *  FROM orders WHERE note = 'a  b'|the query",
                    "param| run date|2024-05-01|null");
            assertThat(properties("/processes/" + id("12"))).containsExactly(
                    "script|shell script|clean_returns.sh --day today|what the step runs");
            assertThat(properties("/processes/" + id("13"))).containsExactlyInAnyOrder(
                    "param|spark conf|spark.executor.memory=2g|null",
                    "credential|db password|null|stock database",
                    "security|kerberos principal|null|null");
            assertThat(properties("/processes/" + id("14"))).containsExactly("dq|min rows|100|fewer fails the run");
            assertThat(properties("/processes/" + id("21"))).containsExactly(
                    "imp-common|source dir|/landing/orders in|where files land");
            assertThat(properties("/processes/" + id("10"))).isEmpty();
            assertThat(properties("/processes/" + ingest)).containsExactly(
                    "bdre-import|bdre.process-id|3" + prefix + "000001|the id of this process in BDRE");
            assertThat(properties("/processes/" + sftp)).containsExactlyInAnyOrder(
                    "bdre-import|bdre.process-id|3" + prefix + "000002|the id of this process in BDRE",
                    "mq|queue name|fraud.events|null", "exp-common|target table|fraud_out|null");

            List<Map<String, Object>> templates = new ArrayList<>();
            for (Map<String, Object> t : registry().get("/process-templates?limit=500").then().statusCode(200)
                    .extract().jsonPath().<Map<String, Object>>getList("items")) {
                if (((Number) t.get("applicationId")).longValue() == retail) {
                    templates.add(t);
                }
            }
            assertThat(templates).hasSize(2);
            Map<String, Object> parent = templates.stream().filter(t -> t.get("parentTemplateId") == null)
                    .findFirst().orElseThrow();
            Map<String, Object> step = templates.stream().filter(t -> t.get("parentTemplateId") != null)
                    .findFirst().orElseThrow();
            long parentId = ((Number) parent.get("templateId")).longValue();
            long stepId = ((Number) step.get("templateId")).longValue();
            assertThat(template(parent)).isEqualTo("daily semantic|A daily semantic job|2|null|true|[" + stepId + "]|1");
            assertThat(template(step)).isEqualTo("daily query|Runs the daily query|9|" + parentId + "|false|["
                    + parentId + "]|0");
            assertThat(properties("/process-templates/" + stepId)).containsExactlyInAnyOrder(
                    "query|query file|daily orders.hql|the query to run", "param|run date|${today}|null");

            Map<String, Object> edge = serverNamed("edge-" + tag);
            assertThat(edge).isNotNull();
            assertThat(List.of(edge.get("serverType"), edge.get("serverMetainfo"), edge.get("loginUser"),
                    edge.get("serverIp"), edge.get("hasLoginPassword"), edge.get("hasSshPrivateKey")))
                    .containsExactly("ssh", "edge node", "etl", "10.0.0.7", true, false);
            assertThat(edge.toString()).doesNotContain("Server-Secret");
            Map<String, Object> localhost = serverNamed("localhost");
            assertThat(((Number) localhost.get("id")).longValue()).isEqualTo(123461L);
        }
    }

    private static String row(long id, String name, String description, long app, int type, Long parent,
                              boolean canRecover, List<Long> enqueuing, String batchCut, List<Long> next,
                              int workflowType) {
        return id + "|" + name + "|" + description + "|" + app + "|" + type + "|" + parent + "|" + canRecover + "|"
                + new TreeSet<>(enqueuing) + "|" + batchCut + "|" + new TreeSet<>(next) + "|" + workflowType;
    }

    private static String process(long id) {
        JsonPath p = registry().get("/processes/" + id).then().statusCode(200).extract().jsonPath();
        Object parent = p.get("parentProcessId");
        return row(p.getLong("id"), p.getString("name"), p.getString("description"), p.getLong("applicationId"),
                p.getInt("processTypeId"), parent == null ? null : ((Number) parent).longValue(),
                p.getBoolean("canRecover"), p.getList("enqueuingProcessIds", Long.class), p.getString("batchCutPattern"),
                p.getList("nextProcessIds", Long.class), p.getInt("workflowTypeId"));
    }

    private static String template(Map<String, Object> t) {
        List<Long> next = ((List<?>) t.get("nextTemplateIds")).stream().map(n -> ((Number) n).longValue()).toList();
        return t.get("name") + "|" + t.get("description") + "|" + t.get("processTypeId") + "|"
                + t.get("parentTemplateId") + "|" + t.get("canRecover") + "|" + next + "|" + t.get("workflowTypeId");
    }

    private static List<String> properties(String owner) {
        List<Map<String, Object>> list = registry().get(owner + "/properties").then().statusCode(200).extract()
                .jsonPath().getList("$");
        return list.stream().map(p -> p.get("configGroup") + "|" + p.get("key") + "|" + p.get("value") + "|"
                + (p.get("description") == null || "".equals(p.get("description")) ? null : p.get("description")))
                .collect(Collectors.toList());
    }

    private static String permissions(long app) {
        JsonPath p = registry().get("/applications/" + app + "/permissions").then().statusCode(200).extract()
                .jsonPath();
        return p.getString("ownerUser") + "|" + p.getString("ownerGroup") + "|" + p.getInt("owner") + "|"
                + p.getInt("group") + "|" + p.getInt("others");
    }

    private static Long applicationId(String name) {
        List<Map<String, Object>> apps = registry().queryParam("name", name).queryParam("limit", 500)
                .get("/applications").then().statusCode(200).extract().jsonPath().getList("items");
        return apps.stream().filter(a -> name.equals(a.get("name"))).map(a -> ((Number) a.get("id")).longValue())
                .findFirst().orElse(null);
    }

    private static Map<String, Object> serverNamed(String name) {
        List<Map<String, Object>> servers = registry().queryParam("limit", 500).get("/servers").then().statusCode(200)
                .extract().jsonPath().getList("items");
        return servers.stream().filter(s -> Objects.equals(name, s.get("serverName"))).findFirst().orElse(null);
    }

    private static RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).header("Authorization", "Bearer " + token);
    }

    /**
     * Runs the fixture files' statements (one per {@code ;} at a line's end) on one connection, placeholders filled:
     * one connection, because the MariaDB schema sets the session's SQL mode that the data's template 0 needs.
     */
    private static void load(Infrastructure.Database db, String prefix, String tag, String... files)
            throws IOException, SQLException {
        try (Connection c = db.connect();
             Statement s = c.createStatement()) {
            for (String file : files) {
                String sql = Files.readString(FIXTURES.resolve(file), StandardCharsets.UTF_8).replace("{{ID}}", prefix)
                        .replace("{{TAG}}", tag);
                for (String statement : sql.split(";\\s*\\n")) {
                    String body = statement.lines().filter(l -> !l.trim().startsWith("--"))
                            .collect(Collectors.joining("\n")).trim();
                    if (!body.isEmpty()) {
                        s.execute(body);
                    }
                }
            }
        }
    }

    private record Run(int status, String out, String err) {
        String all() {
            return out + err;
        }
    }

    /** {@code bin/batchyard import bdre} with the database password and the token in the environment only. */
    private static Run importBdre(Infrastructure.Database db, String... more) throws IOException, InterruptedException {
        Path script = Path.of("..", "..", "client", "cli", "bin", "batchyard").toAbsolutePath().normalize();
        List<String> command = new ArrayList<>(List.of(script.toString(), "import", "bdre", "--jdbc-url",
                db.jdbcUrl(), "--user", db.user(), "--password-env", "BDRE_DB_PASSWORD", "--registry-url",
                stack.registry.url()));
        command.addAll(List.of(more));
        Path out = Files.createTempFile("bdre-import", ".out");
        Path err = Files.createTempFile("bdre-import", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("BATCHYARD_TOKEN", token);
        pb.environment().put("BDRE_DB_PASSWORD", db.password() == null ? "" : db.password());
        Process p = pb.start();
        try (InputStream ignored = p.getInputStream()) {
            assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("the import ended").isTrue();
        }
        Run run = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        System.out.println("[BdreImportEndToEndTest] batchyard import bdre " + String.join(" ", more) + " -> exit "
                + run.status + "\n" + run.all());
        return run;
    }
}
