package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.client.hive.ExecutedQuery;
import io.batchyard.client.hive.HookSettings;
import io.batchyard.client.hive.QueryExtraction;
import io.batchyard.client.hive.QuerySender;
import io.batchyard.client.hive.ScriptRegistration;
import io.batchyard.e2e.RegistryFixtures.Job;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Hive lineage hook's shaded jar (the one Hive's aux path takes, with its relocated Kafka client and Avro) sends
 * the queries a running step executed, taken from the job configuration a generated Oozie Hive action sets, and
 * lineage-service registers and parses them; a re-sent execution registers nothing new, a script registers each of
 * its statements, and a configuration without the run registers nothing. Hive itself is not here: the
 * test starts where {@code LineageHook} hands Hive's query text, query id, operation and database over.
 */
class HiveHookEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void aStepsExecutedQueriesArriveInLineageServiceParsedAndOnce() {
        Job job = RegistryFixtures.knownJob(stack, "hive-hook", WAIT);
        long run = given().baseUri(stack.execution.url()).contentType(ContentType.JSON).body(Map.of("maxBatch", 1))
                .post("/jobs/" + job.parent() + "/init").then().statusCode(200).extract().jsonPath()
                .getLong("instanceExecId");
        given().baseUri(stack.execution.url()).post("/steps/" + job.step() + "/init").then().statusCode(200);

        // What the generated workflow's Hive action puts into the job configuration, EL resolved, plus hive-site.xml.
        Map<String, String> conf = new HashMap<>();
        conf.put("batchyard.lineage.processId", String.valueOf(job.step()));
        conf.put("batchyard.lineage.instanceExecId", String.valueOf(run));
        conf.put(HookSettings.BOOTSTRAP_SERVERS, stack.kafka());
        conf.put(HookSettings.REGISTRY_URL, stack.infra.schemaRegistryUrl());
        // The hook's 5 s default bounds a Hive query's wait; the first send here also registers the schema and fetches
        // the topic's metadata on a machine that runs other suites beside this one, so it gets longer.
        conf.put(HookSettings.SEND_TIMEOUT_MS, "30000");
        String db = "hook" + System.nanoTime() % 1_000_000;
        String insert = "INSERT OVERWRITE TABLE daily SELECT day, sum(amount) AS total FROM raw GROUP BY day";
        String select = "SELECT day FROM daily WHERE total > 10";

        try (QuerySender sender = new QuerySender(HookSettings.from(conf::get, Map.of()))) {
            ExecutedQuery first = single(conf, insert, "hive_1_" + db, "QUERY", db);
            assertThat(sender.send(first)).isTrue();
            // The same execution again (a retried hook): same id, registered once.
            assertThat(sender.send(single(conf, insert, "hive_1_" + db, "QUERY", db))).isTrue();
            // USE is not a lineage statement: not sent at all.
            assertThat(QueryExtraction.extract(conf::get, "USE " + db, "hive_2_" + db, "SWITCHDATABASE", db)
                    .queries()).isEmpty();
            assertThat(sender.send(single(conf, select, "hive_3_" + db, "QUERY", db))).isTrue();
        }
        // A whole script handed over as one text: one registration per statement, no SET, comments gone, and the
        // statements after its USE in that database although the session's was another.
        String script = "use " + db + "; -- the weekly roll-up\n INSERT OVERWRITE TABLE weekly\n  SELECT day, total "
                + "FROM daily ;\nset hive.exec.dynamic.partition=true; SELECT day FROM weekly";
        String rollUp = "INSERT OVERWRITE TABLE weekly SELECT day, total FROM daily";
        assertThat(ScriptRegistration.register(conf::get, Map.of(), script, "hive_4_" + db, "QUERY", "default"))
                .isEqualTo(3);
        // A job configuration without the run registers nothing.
        Map<String, String> noRun = new HashMap<>(conf);
        noRun.remove("batchyard.lineage.instanceExecId");
        assertThat(ScriptRegistration.register(noRun::get, Map.of(), "SELECT total FROM weekly", "hive_5_" + db,
                "QUERY", db)).isZero();

        // One key, one partition: once the last query is there, the ones before it have been consumed too.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            JsonPath queries = given().baseUri(stack.lineage.url()).queryParam("processId", job.step())
                    .get("/queries").then().statusCode(200).extract().jsonPath();
            assertThat(queries.getList("items.queryText", String.class)).containsExactlyInAnyOrder(insert, select,
                    "use " + db, rollUp, "SELECT day FROM weekly");
        });
        JsonPath queries = given().baseUri(stack.lineage.url()).queryParam("processId", job.step())
                .queryParam("instanceExecId", run).get("/queries").then().statusCode(200).extract().jsonPath();
        assertThat(queries.getList("items.parseStatus", String.class)).hasSize(5).containsOnly("PARSED");
        assertThat(queries.getList("items.queryType", String.class)).containsOnly("HIVE");
        assertThat(queries.getList("items.instanceExecId", Long.class)).containsOnly(run);
        List<String> texts = queries.getList("items.queryText", String.class);
        List<String> databases = queries.getList("items.defaultDatabase", String.class);
        for (int i = 0; i < texts.size(); i++) {
            assertThat(databases.get(i)).as(texts.get(i)).isEqualTo(texts.get(i).startsWith("use ") ? "default" : db);
        }

        JsonPath weekly = given().baseUri(stack.lineage.url()).queryParam("table", db + ".weekly")
                .queryParam("column", "total").queryParam("direction", "upstream").get("/lineage/columns").then()
                .statusCode(200).extract().jsonPath();
        assertThat(weekly.getList("nodes.key", String.class)).contains(db + ".daily.total");

        // Parsed in the step's database: the aggregate reads db.raw.amount.
        JsonPath up = given().baseUri(stack.lineage.url()).queryParam("table", db + ".daily")
                .queryParam("column", "total").queryParam("direction", "upstream").get("/lineage/columns").then()
                .statusCode(200).extract().jsonPath();
        assertThat(up.getList("nodes.key", String.class)).contains(db + ".raw.amount");
        assertThat(up.getList("edges.processId", Long.class)).contains(job.step());
    }

    private static ExecutedQuery single(Map<String, String> conf, String text, String hiveQueryId, String operation,
                                        String db) {
        List<ExecutedQuery> queries = QueryExtraction.extract(conf::get, text, hiveQueryId, operation, db).queries();
        assertThat(queries).hasSize(1);
        return queries.get(0);
    }
}
