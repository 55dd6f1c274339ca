package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.queue.ObjectCreated;
import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.batchyard.queue.TestDatabase;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventPublisher;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@QueueTest
class CompactionApiTest {

    /**
     * The merge interval of the tables here: an hour, so their merge jobs never fall due while other tests of this JVM
     * run workers that would claim them.
     */
    private static final int HOLD = 3600;

    @Inject
    Compaction compaction;

    @Inject
    MeterRegistry meters;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    private static ValidatableResponse post(String path, Object body) {
        return given().contentType(ContentType.JSON).body(body).post(path).then();
    }

    private static Map<String, Object> object(String schema, String date, String key) {
        Map<String, Object> body = new HashMap<>();
        body.put("schemaName", schema);
        body.put("tableName", "events");
        body.put("partitionDate", date);
        body.put("objectKey", key);
        return body;
    }

    private static void problem(ValidatableResponse r, int status, int code) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void operatorsReplayKeysAndDropTablesIdempotentlyAndEveryActionIsAudited(TestStore store) {
        String schema = "o" + QueueFixtures.nextId();
        Map<String, Object> table = new java.util.HashMap<>(Map.of("schemaName", schema, "tableName", "events",
                "mergeIntervalSeconds", HOLD));
        if (store == TestStore.S3) {
            StoreLocation location = store.location();
            table.put("store", Map.of("kind", "s3", "bucket", location.bucket(), "prefix", location.prefix()));
        }
        long tableId = post("/compaction/tables", table).statusCode(201).extract().jsonPath().getLong("tableId");
        CompactionFixture f = new CompactionFixture(compaction, store, HOLD, schema);
        String a = f.write(2, 0);
        String b = f.write(2, 0);
        String missing = f.folder() + "incoming/never-written.jsonl";
        Map<String, Object> replay = Map.of("schemaName", schema, "tableName", "events", "partitionDate", "2030-01-03",
                "objectKeys", List.of(a, b, a, missing));
        post("/compaction/replay", replay).statusCode(200).body("registered", equalTo(2))
                .body("alreadyKnown", equalTo(0)).body("refused", equalTo(1)).body("keys.size()", equalTo(3))
                .body("keys.find { it.outcome == 'REFUSED' }.code", equalTo(313));
        // a replay again registers nothing twice
        post("/compaction/replay", replay).statusCode(200).body("registered", equalTo(0))
                .body("alreadyKnown", equalTo(2)).body("refused", equalTo(1));
        problem(post("/compaction/replay", Map.of("schemaName", schema, "tableName", "events",
                "partitionDate", "2030-01-03", "objectKeys", List.of())), 400, 330);
        long partitionId = given().queryParam("tableId", tableId).get("/compaction/partitions").then().statusCode(200)
                .extract().jsonPath().getLong("items[0].partitionId");
        given().queryParam("partitionId", partitionId).get("/compaction/jobs").then().statusCode(200)
                .body("total", equalTo(1));

        given().post("/compaction/tables/" + tableId + "/drop").then().statusCode(200)
                .body("droppedNow", equalTo(true)).body("jobsRemoved", equalTo(1));
        given().post("/compaction/tables/" + tableId + "/drop").then().statusCode(200)
                .body("droppedNow", equalTo(false)).body("jobsRemoved", equalTo(0));
        problem(given().post("/compaction/tables/999999999/drop").then(), 404, 311);
        // a dropped table takes no new object and queues no merge; its rows stay readable
        problem(post("/compaction/objects", object(schema, "2030-01-03", f.write(1, 0))), 409, 329);
        given().queryParam("partitionId", partitionId).get("/compaction/jobs").then().statusCode(200)
                .body("total", equalTo(0));
        given().get("/compaction/partitions/" + partitionId + "/objects").then().statusCode(200)
                .body("total", equalTo(2));

        given().queryParam("limit", 4).get("/compaction/audit").then().statusCode(200)
                .body("items.action", contains("DROP_TABLE", "DROP_TABLE", "REPLAY_REGISTRATION", "REPLAY_REGISTRATION"))
                .body("items.result", contains("ALREADY", "DONE", "PARTIAL", "PARTIAL"))
                .body("items[1].target", equalTo("table " + tableId))
                .body("items[3].detail", containsString("2 registered, 0 already known, 1 refused"))
                .body("items[0].actor", notNullValue());
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void tablesAndObjectsRegisterIdempotentlyOverRest(TestStore store) {
        String schema = "r" + QueueFixtures.nextId();
        Map<String, Object> table = new java.util.HashMap<>(Map.of("schemaName", schema, "tableName", "events",
                "mergeIntervalSeconds", HOLD));
        StoreLocation location = store.location();
        if (store == TestStore.S3) {
            table.put("store", Map.of("kind", "s3", "bucket", location.bucket(), "prefix", location.prefix()));
        }
        long tableId = post("/compaction/tables", table).statusCode(201)
                .body("store.kind", equalTo(store == TestStore.S3 ? "s3" : "filesystem"))
                .body("applicationId", equalTo(1)).body("keyPrefix", equalTo(schema + "/events/"))
                .extract().jsonPath().getLong("tableId");
        post("/compaction/tables", table).statusCode(200).body("tableId", equalTo((int) tableId));
        problem(post("/compaction/tables", Map.of("schemaName", schema, "tableName", "events", "mergeIntervalSeconds", 61)),
                409, 312);
        // the store is part of the definition: the same table in another store is another definition
        problem(post("/compaction/tables", Map.of("schemaName", schema, "tableName", "events",
                "mergeIntervalSeconds", HOLD, "store", store == TestStore.S3 ? Map.of("kind", "filesystem")
                        : Map.of("kind", "s3", "bucket", TestStore.S3.location().bucket()))), 409, 312);

        CompactionFixture f = new CompactionFixture(compaction, store, HOLD, schema);
        String key = f.write(3, 0);
        long objectId = post("/compaction/objects", object(schema, "2030-01-02", key)).statusCode(201)
                .body("created", equalTo(true)).body("object.delayed", equalTo(false))
                .body("storageKey", containsString("/live/dt=2030-01-02/object-"))
                .extract().jsonPath().getLong("object.objectId");
        post("/compaction/objects", object(schema, "2030-01-02", key)).statusCode(200)
                .body("created", equalTo(false)).body("object.objectId", equalTo((int) objectId));
        long partitionId = given().queryParam("tableId", tableId).get("/compaction/partitions").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].partitionDate", equalTo("2030-01-02"))
                .body("items[0].state", equalTo("NEW")).extract().jsonPath().getLong("items[0].partitionId");
        given().queryParam("partitionId", partitionId).get("/compaction/jobs").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].state", equalTo("PENDING"));
        given().queryParam("state", "pending").queryParam("limit", 1).get("/compaction/jobs").then().statusCode(200)
                .body("limit", equalTo(1)).body("total", greaterThanOrEqualTo(1));
        given().get("/compaction/tables").then().statusCode(200).body("total", greaterThanOrEqualTo(1));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void refusalsAreProblemsWithCompactionCodesNeverServerErrors(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, HOLD);
        String key = f.write(1, 0);
        problem(post("/compaction/objects", object("nosuchschema", "2030-01-02", key)), 404, 311);
        problem(post("/compaction/objects", object(f.schema, "2030-01-02", f.folder() + "incoming/missing.jsonl")), 404,
                313);
        problem(post("/compaction/objects", object(f.schema, "2030-01-02", "../../etc/passwd")), 400, 316);
        problem(post("/compaction/objects", object(f.schema, "2030-01-02", "/etc/passwd")), 400, 316);
        problem(post("/compaction/objects", object(f.schema, "not-a-date", key)), 400, 1);
        problem(post("/compaction/objects", object(f.schema, "2030-02-30", key)), 400, 1);
        problem(post("/compaction/objects", object("Bad-Name", "2030-01-02", key)), 400, 1);
        problem(post("/compaction/tables", Map.of("schemaName", "x")), 400, 1);
        for (Map<String, Object> bad : List.<Map<String, Object>>of(Map.of("kind", "ftp"), Map.of("kind", "s3"),
                Map.of("kind", "s3", "bucket", "Not_A_Bucket"), Map.of("kind", "s3", "bucket", "ok-bucket", "prefix", "../x/"),
                Map.of("kind", "s3", "bucket", "ok-bucket", "prefix", "no-slash"), Map.of("kind", "filesystem", "bucket", "b1b"))) {
            problem(post("/compaction/tables", Map.of("schemaName", "x", "tableName", "y", "store", bad)), 400, 1);
        }
        problem(given().get("/compaction/partitions/999999999").then(), 404, 314);
        problem(given().post("/compaction/partitions/999999999/close").then(), 404, 314);
        problem(given().get("/compaction/partitions/999999999/manifest").then(), 404, 314);
        problem(given().post("/compaction/jobs/999999999/retry").then(), 404, 317);
        problem(given().queryParam("state", "bogus").get("/compaction/jobs").then(), 400, 1);
        problem(given().queryParam("limit", 0).get("/compaction/jobs").then(), 400, 1);

        long partition = f.register(key).object().partitionId();
        long job = await(() -> compaction.jobs.list(null, partition, 1, 0)).get(0).jobId();
        problem(given().post("/compaction/jobs/" + job + "/retry").then(), 409, 318);
        problem(given().get("/compaction/partitions/" + partition + "/manifest").then(), 404, 319);
        given().post("/compaction/catalog/sync").then().statusCode(200);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void objectCreatedEventsRegisterOnceAndUnroutableOnesAreQuarantined(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 3600);
        String key = f.write(2, 0);
        LocalDate day = LocalDate.now().plusDays(3);
        try (EventPublisher publisher = new EventPublisher(bootstrap)) {
            ObjectCreated created = ObjectCreated.newBuilder().setHeader(Events.header("producer-test", null, null))
                    .setSchemaName(f.schema).setTableName(f.table).setPartitionDate(day).setObjectKey(key).build();
            double duplicatesBefore = duplicates();
            publisher.publish(Topics.QUEUE_OBJECTS, f.schema + "." + f.table, created);
            publisher.publish(Topics.QUEUE_OBJECTS, f.schema + "." + f.table, created); // redelivery
            // the producer announces the same object again under a new event id
            ObjectCreated again = ObjectCreated.newBuilder().setHeader(Events.header("producer-test", null, null))
                    .setSchemaName(f.schema).setTableName(f.table).setPartitionDate(day).setObjectKey(key).build();
            publisher.publish(Topics.QUEUE_OBJECTS, f.schema + "." + f.table, again);
            ObjectCreated unknown = ObjectCreated.newBuilder().setHeader(Events.header("producer-test", null, null))
                    .setSchemaName("nosuch" + QueueFixtures.nextId()).setTableName("events").setPartitionDate(day)
                    .setObjectKey(key).build();
            publisher.publish(Topics.QUEUE_OBJECTS, "nosuch.events", unknown);

            await().atMost(Duration.ofSeconds(30)).until(() -> duplicates() > duplicatesBefore
                    && count("SELECT count(*) FROM unknown_object WHERE schema_name = '" + unknown.getSchemaName() + "'") == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM processed_event WHERE event_id IN ('"
                    + Events.eventId(created) + "', '" + Events.eventId(again) + "')") == 2);
            assertThat(count("SELECT count(*) FROM small_object s JOIN compaction_partition p USING (partition_id) "
                    + "JOIN compaction_table t USING (table_id) WHERE t.schema_name = '" + f.schema + "'"))
                    .as("one object however often it is announced").isEqualTo(1);
            String reason = TestDatabase.list("SELECT reason FROM unknown_object WHERE schema_name = ?",
                    rs -> rs.getString(1), unknown.getSchemaName()).get(0);
            assertThat(reason).isEqualTo("Unknown compaction table");
        }
    }

    private long count(String sql) {
        return TestDatabase.number(sql);
    }

    /** Duplicate deliveries the ledger dropped, over every consumer, as its counter says. */
    private double duplicates() {
        return meters.find(ProcessedEventLedger.DUPLICATES).counters().stream().mapToDouble(Counter::count).sum();
    }
}
