package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.queue.compaction.store.FileSystemObjectStore;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Compaction tables belong to an application, and everything of a table (its settings, objects, partitions, jobs and
 * audit) follows that application's permissions: reads need read, operations execute, settings write, and a caller
 * who may not read the application finds nothing, as if it did not exist. The service reads the store for its callers
 * only within bounds: buckets the deployment allows, keys in the table's own folder, and no symbolic link.
 *
 * <p>Application T: its owner "tom" holds 7, its group "team-t" 4 (read), others 0; "rose" is in team-t; "sid" is a
 * stranger who owns application S.
 */
@QueueTest
class CompactionAccessTest extends CompactionTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long NO_SUCH_APPLICATION = 987_654_321L;
    /**
     * The merge interval of the tables here: an hour, so their merge jobs never fall due while other tests of this JVM
     * run workers that would claim them.
     */
    private static final int HOLD = 3600;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @TempDir
    Path outside;

    private final String tom = Identity.get().token("tom", Set.of("developer", "operator"), Set.of());
    private final String rose = Identity.get().token("rose", Set.of("developer", "operator"), Set.of("team-t"));
    private final String sid = Identity.get().token("sid", Set.of("developer", "operator"), Set.of());

    /** The applications of a test: T (tom's team) and S (sid's). */
    private record Apps(long t, long s) {
    }

    private Apps apps() {
        Apps apps = new Apps(QueueFixtures.nextId(), QueueFixtures.nextId());
        try (EventPublisher publisher = new EventPublisher(bootstrap)) {
            publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + apps.t(),
                    ProcessTrees.application(apps.t(), "tom", "team-t", 7, 4, 0));
            publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + apps.s(),
                    ProcessTrees.application(apps.s(), "sid", null, 7, 0, 0));
        }
        await().atMost(WAIT).until(() -> TestDatabase.number(
                "SELECT count(*) FROM application_access WHERE application_id IN (?, ?)", apps.t(), apps.s()) == 2);
        return apps;
    }

    private static RequestSpecification as(String token) {
        return given().auth().oauth2(token).contentType(ContentType.JSON);
    }

    private static Map<String, Object> table(String schema, long application, TestStore store) {
        Map<String, Object> body = new HashMap<>(Map.of("schemaName", schema, "tableName", "events",
                "mergeIntervalSeconds", HOLD, "applicationId", application));
        if (store == TestStore.S3) {
            StoreLocation location = store.location();
            body.put("store", Map.of("kind", "s3", "bucket", location.bucket(), "prefix", location.prefix()));
        }
        return body;
    }

    private static Map<String, Object> object(String schema, String date, String key) {
        return Map.of("schemaName", schema, "tableName", "events", "partitionDate", date, "objectKey", key);
    }

    private static void problem(ValidatableResponse r, int status, int code) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }

    @Test
    void aTableBelongsToAnApplicationWhoseWritersAloneRegisterItOrChangeItsSettings() {
        Apps apps = apps();
        String schema = "acl" + QueueFixtures.nextId();

        Map<String, Object> ofT = table(schema, apps.t(), TestStore.FILESYSTEM);
        problem(as(sid).body(ofT).post("/compaction/tables").then(), 422, 338);
        problem(as(sid).body(table(schema, NO_SUCH_APPLICATION, TestStore.FILESYSTEM)).post("/compaction/tables")
                .then(), 422, 338);
        problem(as(rose).body(ofT).post("/compaction/tables").then(), 403, 14);
        long tableId = as(tom).body(table(schema, apps.t(), TestStore.FILESYSTEM)).post("/compaction/tables").then()
                .statusCode(201).body("applicationId", equalTo((int) apps.t()))
                .body("keyPrefix", equalTo(schema + "/events/")).extract().jsonPath().getLong("tableId");
        as(tom).body(table(schema, apps.t(), TestStore.FILESYSTEM)).post("/compaction/tables").then().statusCode(200);
        // the name is taken, and that is all a stranger learns of the table
        as(sid).body(table(schema, apps.s(), TestStore.FILESYSTEM)).post("/compaction/tables").then().statusCode(409)
                .body("code", equalTo(312)).body("detail", not(containsString("interval")))
                .body("detail", not(containsString(String.valueOf(apps.t()))));

        as(rose).queryParam("limit", 500).get("/compaction/tables").then().statusCode(200)
                .body("items.tableId", hasItem((int) tableId));
        as(sid).queryParam("limit", 500).get("/compaction/tables").then().statusCode(200)
                .body("items.tableId", not(hasItem((int) tableId)));

        String settings = "/compaction/tables/" + tableId + "/settings";
        as(rose).get(settings).then().statusCode(200).body("tableId", equalTo((int) tableId));
        problem(as(sid).get(settings).then(), 404, 311);
        problem(as(sid).get("/compaction/tables/987654321/settings").then(), 404, 311);
        Map<String, Object> change = Map.of("mergeIntervalSeconds", 120);
        problem(as(rose).body(change).put(settings).then(), 403, 14);
        problem(as(sid).body(change).put(settings).then(), 404, 311);
        as(tom).body(change).put(settings).then().statusCode(200).body("table.mergeIntervalSeconds", equalTo(120));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void objectsPartitionsJobsAndTheAuditOfATableAreItsApplicationsOnly(TestStore store) {
        Apps apps = apps();
        String schema = "acl" + QueueFixtures.nextId();
        long tableId = as(tom).body(table(schema, apps.t(), store)).post("/compaction/tables").then().statusCode(201)
                .extract().jsonPath().getLong("tableId");
        CompactionFixture f = new CompactionFixture(compaction, store, HOLD, schema);
        String key = f.write(2, 0);
        String date = f.date.toString();

        problem(as(sid).body(object(schema, date, key)).post("/compaction/objects").then(), 404, 311);
        problem(as(rose).body(object(schema, date, key)).post("/compaction/objects").then(), 403, 14);
        long partition = as(tom).body(object(schema, date, key)).post("/compaction/objects").then().statusCode(201)
                .extract().jsonPath().getLong("object.partitionId");
        assertThat(TestDatabase.number("SELECT count(*) FROM small_object WHERE partition_id = ?", partition))
                .as("only the owner's registration went through").isEqualTo(1);

        String path = "/compaction/partitions/" + partition;
        for (String read : List.of("", "/read-location", "/objects", "/ranges", "/quarantine")) {
            as(rose).get(path + read).then().statusCode(200);
            problem(as(sid).get(path + read).then(), 404, 314);
        }
        problem(as(rose).get(path + "/manifest").then(), 404, 319);
        problem(as(sid).get(path + "/manifest").then(), 404, 314);
        for (String action : List.of("/close", "/gc", "/merge", "/rebuild")) {
            problem(as(rose).post(path + action).then(), 403, 14);
            problem(as(sid).post(path + action).then(), 404, 314);
        }
        for (String decision : List.of("/quarantine/release", "/quarantine/drop")) {
            problem(as(rose).queryParam("objectKey", key).post(path + decision).then(), 403, 14);
            problem(as(sid).queryParam("objectKey", key).post(path + decision).then(), 404, 314);
        }
        as(rose).queryParam("tableId", tableId).get("/compaction/partitions").then().statusCode(200)
                .body("total", equalTo(1));
        as(sid).queryParam("tableId", tableId).get("/compaction/partitions").then().statusCode(200)
                .body("total", equalTo(0));
        as(sid).queryParam("limit", 500).get("/compaction/partitions").then().statusCode(200)
                .body("items.partitionId", not(hasItem((int) partition)));

        long job = as(rose).queryParam("partitionId", partition).get("/compaction/jobs").then().statusCode(200)
                .body("total", equalTo(1)).extract().jsonPath().getLong("items[0].jobId");
        as(sid).queryParam("partitionId", partition).get("/compaction/jobs").then().statusCode(200)
                .body("total", equalTo(0));
        problem(as(rose).post("/compaction/jobs/" + job + "/retry").then(), 403, 14);
        problem(as(sid).post("/compaction/jobs/" + job + "/retry").then(), 404, 317);
        problem(as(tom).post("/compaction/jobs/" + job + "/retry").then(), 409, 318);

        Map<String, Object> replay = Map.of("schemaName", schema, "tableName", "events", "partitionDate", date,
                "objectKeys", List.of(key));
        problem(as(sid).body(replay).post("/compaction/replay").then(), 404, 311);
        problem(as(rose).body(replay).post("/compaction/replay").then(), 403, 14);
        as(tom).body(replay).post("/compaction/replay").then().statusCode(200).body("alreadyKnown", equalTo(1));
        String audited = "table " + schema + ".events " + date;
        as(rose).queryParam("limit", 500).get("/compaction/audit").then().statusCode(200)
                .body("items.target", hasItem(audited)).body("items.actor", hasItem("tom"));
        as(sid).queryParam("limit", 500).get("/compaction/audit").then().statusCode(200)
                .body("items.target", not(hasItem(startsWith("table " + schema))));

        // the owner operates the table
        as(tom).post(path + "/merge").then().statusCode(200).body("expedited", equalTo(true));
        as(tom).post(path + "/close").then().statusCode(200).body("closedNow", equalTo(true));
        as(tom).post(path + "/gc").then().statusCode(200);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aKeyOutsideItsTablesFolderIsRefusedSoNoTableTakesInAnothersObjects(TestStore store) {
        Apps apps = apps();
        CompactionFixture victim = new CompactionFixture(compaction, store, HOLD);
        String victims = victim.write(2, 0);
        String placed = victim.register(victims).storageKey();
        String schema = "acl" + QueueFixtures.nextId();
        as(sid).body(table(schema, apps.s(), store)).post("/compaction/tables").then().statusCode(201);
        CompactionFixture own = new CompactionFixture(compaction, store, HOLD, schema);
        String date = own.date.toString();

        problem(as(sid).body(object(schema, date, victims)).post("/compaction/objects").then(), 400, 336);
        problem(as(sid).body(object(schema, date, placed)).post("/compaction/objects").then(), 400, 336);
        problem(as(sid).body(object(schema, date, own.folder() + "../" + victims)).post("/compaction/objects").then(),
                400, 316);
        problem(as(sid).body(object(schema, date, "/" + victims)).post("/compaction/objects").then(), 400, 316);
        as(sid).body(Map.of("schemaName", schema, "tableName", "events", "partitionDate", date,
                        "objectKeys", List.of(victims, own.write(1, 0)))).post("/compaction/replay").then()
                .statusCode(200).body("registered", equalTo(1)).body("refused", equalTo(1))
                .body("keys.find { it.outcome == 'REFUSED' }.code", equalTo(336));
        assertThat(TestDatabase.number("""
                SELECT count(*) FROM small_object s JOIN compaction_partition p USING (partition_id)
                JOIN compaction_table t USING (table_id) WHERE t.schema_name = ?""", schema))
                .as("only the table's own object").isEqualTo(1);
        as(sid).body(object(schema, date, own.write(1, 0))).post("/compaction/objects").then().statusCode(201);
    }

    @Test
    void bucketsComeFromTheDeploymentsAllowListAndTablePrefixesDoNotNest() {
        Apps apps = apps();
        new CompactionFixture(compaction, TestStore.S3, HOLD); // a table at this JVM's prefix of the shared bucket
        StoreLocation shared = TestStore.S3.location();
        Map<String, Object> body = new HashMap<>(table("acl" + QueueFixtures.nextId(), apps.t(), TestStore.FILESYSTEM));

        body.put("store", Map.of("kind", "s3", "bucket", "another-teams-bucket"));
        problem(as(tom).body(body).post("/compaction/tables").then(), 422, 335);
        body.put("store", Map.of("kind", "s3", "bucket", shared.bucket(), "prefix", shared.prefix() + "inner/"));
        problem(as(tom).body(body).post("/compaction/tables").then(), 409, 339);
        body.put("store", Map.of("kind", "s3", "bucket", shared.bucket()));
        problem(as(tom).body(body).post("/compaction/tables").then(), 409, 339);
        body.put("store", Map.of("kind", "s3", "bucket", shared.bucket(), "prefix", shared.prefix()));
        as(tom).body(body).post("/compaction/tables").then().statusCode(201);
    }

    @Test
    void theFilesystemStoreFollowsNoSymbolicLinkToAnotherFile() throws IOException {
        CompactionFixture f = new CompactionFixture(compaction, 0);
        Path root = ((FileSystemObjectStore) compaction.stores.filesystem()).root();
        Path secret = Files.writeString(outside.resolve("secret.jsonl"), "{\"eventTime\":1,\"id\":\"secret#1\"}\n");
        String link = f.folder() + "incoming/link.jsonl";
        Files.createDirectories(root.resolve(link).getParent());
        Files.createSymbolicLink(root.resolve(link), secret);
        Files.createSymbolicLink(root.resolve(f.folder() + "linked"), outside);
        String date = f.date.toString();

        problem(given().contentType(ContentType.JSON).body(object(f.schema, date, link)).post("/compaction/objects")
                .then(), 422, 337);
        problem(given().contentType(ContentType.JSON).body(object(f.schema, date, f.folder() + "linked/secret.jsonl"))
                .post("/compaction/objects").then(), 422, 337);
        assertThat(TestDatabase.number("""
                SELECT count(*) FROM small_object s JOIN compaction_partition p USING (partition_id)
                JOIN compaction_table t USING (table_id) WHERE t.schema_name = ?""", f.schema)).isZero();

        // a stored copy swapped for a link is not read through it: the merge sets the object aside
        long partition = f.arrive(1, 3, 0);
        ObjectRegistrationService.Registered swapped = f.register(f.write(2, 0));
        Path copy = root.resolve(swapped.storageKey());
        Files.delete(copy);
        Files.createSymbolicLink(copy, secret);
        drain(compaction.worker("w"));
        given().get("/compaction/partitions/" + partition + "/quarantine").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].objectId", equalTo((int) swapped.object().objectId()))
                .body("items[0].error", containsString("symbolic link"));
        assertThat(f.mergedText(partition)).doesNotContain("secret#1");
    }
}
