package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.e2e.AccessMatrix.Who;
import io.batchyard.teststack.identity.Identity;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;
import org.hamcrest.Matchers;

/**
 * Application X and one real object of every kind the services guard, all in X, made through the services' public
 * APIs as an administrator (the application itself by its owner). X belongs to {@link #OWNER_USER}, its owner group is
 * {@link #TEAM}; the owner gets 7, the group 4 (read only) and everyone else 0, so the matrix's callers are a stranger
 * (nothing), a member of the group (read) and the owner (read, write and execute) in each role. For a second pass
 * the owner gives the group 7 ({@link #giveTheGroup}).
 *
 * <p>Objects that an allowed call changes for good (deletes, drops) are made fresh for each call by the
 * {@code fresh…} methods, so that one caller's delete never decides another caller's answer.
 */
final class AccessFixtures {

    static final String OWNER_USER = "acl-owner";
    static final String TEAM = "acl-team";
    /** The server every batch and file names (seeded by registry-service's migrations). */
    static final long SERVER = 123461;
    /** X's permission settings: the owner 7, its group 4 (read only), everyone else 0. */
    static final ApplicationAccess ACCESS = new ApplicationAccess(0, OWNER_USER, TEAM, 7, 4, 0);
    /**
     * The callers, in the roles of the policy, against application X ({@link #ACCESS}).
     */
    static final List<Who> CALLERS = List.of(
            new Who("anonymous", null, Set.of(), Set.of()),
            new Who("viewer without read", "acl-stranger", Set.of("viewer"), Set.of()),
            new Who("viewer with read", "acl-reader", Set.of("viewer"), Set.of(TEAM)),
            new Who("operator without read", "acl-stranger-operator", Set.of("operator"), Set.of()),
            new Who("operator with read, without execute", "acl-operator", Set.of("operator"),
                    Set.of(TEAM)),
            new Who("operator with execute (owner)", OWNER_USER, Set.of("operator"), Set.of()),
            new Who("developer without read", "acl-stranger-developer", Set.of("developer"), Set.of()),
            new Who("developer with read, without write", "acl-developer", Set.of("developer"),
                    Set.of(TEAM)),
            new Who("developer owner", OWNER_USER, Set.of("developer"), Set.of()),
            new Who("admin", "acl-admin", Set.of("admin"), Set.of()),
            new Who("service", "service-execution", Set.of("service"), Set.of()));

    /** X's group members again, for the pass in which the group has 7 ({@link #giveTheGroup}). */
    static final List<Who> GROUP_CALLERS = List.of(
            new Who("viewer of the group, group 7", "acl-reader", Set.of("viewer"), Set.of(TEAM)),
            new Who("operator with execute (group 7)", "acl-operator", Set.of("operator"), Set.of(TEAM)),
            new Who("developer with write, not owner (group 7)", "acl-developer", Set.of("developer"), Set.of(TEAM)));
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** How long the set-up waits for the services to learn X's permissions before the matrix judges anyway. */
    private static final Duration PROPAGATION = Duration.ofSeconds(60);

    private final Stack stack;
    private final ServiceProcess dashboard;
    private final AtomicLong sequence = new AtomicLong();
    /** X's permission settings now. */
    private volatile ApplicationAccess current = ACCESS;

    /** Unique per run of the test, in every name it makes (lower case: compaction and Hive names need it). */
    final String tag = "acl" + System.nanoTime() % 100_000_000;
    final String appName = "acl-matrix-" + tag;
    final long app;

    /** A parent U with one step; the step of P consumes U's batches. */
    final long upstream;
    /** The parent whose objects the reads are about (runs, log, deployments, properties, lineage). */
    final long parent;
    final long step;
    /** A parent whose lifecycle the lifecycle calls may change as they like. */
    final long lifecycleParent;
    final long lifecycleStep;
    /** A stand-alone parent (workflow type 2) with a run policy, a completed bucket and its run's output. */
    final long standalone;
    final long standaloneStep;
    final String completedBucket = "acl-bucket";
    /** A bucket whose run failed (the script fails for it), for the retries. */
    final String failedBucket = "acl-failing";
    /**
     * A stand-alone parent with a disabled daily run policy (so a backfill has dates to record and nothing runs),
     * which the policy deletes remove (re-made before each of them).
     */
    final long policyParent;
    /** A parent whose ETL driver the driver deletes remove (re-made before each of them). */
    final long etlParent;

    final long run;
    final long targetBatch;
    final long archivedBatch;
    final long queuedBatch;
    final long runnerRun;
    /** A backfill plan of the stand-alone parent's completed bucket, and a backfill started from it. */
    final String backfillPlan;
    final String backfill;
    final long logId;
    final String logCategory = "acl";
    final String logMessageId = "acl-message";
    final long deployment;
    /** A data deadline of the parent's bucket in progress (its deadlines set in the registry). */
    final long deadline;
    final String propertyKey = "acl_key";

    final long template;
    final long hiveTable;
    final long hiveView;
    final String hiveDb;
    final long server;

    final String lineageDb;
    final String sourceTable;
    final String targetTable;
    final String query;

    final String compactionSchema;
    final String compactionTableName;
    final long compactionTable;
    final long droppableTable;
    /** A closed, merged and published partition of yesterday's date minus one, with one quarantined object. */
    final long partition;
    final String quarantinedKey;
    /** Today's partition, whose pending merge job waits its table's merge interval. */
    final long jobPartition;
    final String jobPartitionDate;
    final long mergeJob;
    /** An object in the store, not registered by the set-up: the registrations of the matrix register it. */
    final String unregisteredKey;

    AccessFixtures(Stack stack, ServiceProcess dashboard) {
        this.stack = stack;
        this.dashboard = dashboard;
        // A set-up call that fails prints what it sent and what came back.
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();

        // X is made by its owner (the creator becomes the owner user), who then gives the group read only.
        String ownerToken = Identity.get().token(OWNER_USER, "developer");
        app = given().baseUri(stack.registry.url()).contentType(ContentType.JSON).auth().oauth2(ownerToken)
                .body(Map.of("name", appName, "description", "access matrix", "owner", OWNER_USER))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        given().baseUri(stack.registry.url()).contentType(ContentType.JSON).auth().oauth2(ownerToken)
                .body(permissions()).put("/applications/" + app + "/permissions").then().statusCode(200);

        upstream = process(null, List.of(), 1, null);
        long upstreamStep = process(upstream, List.of(), 12, null);
        link(upstream, upstreamStep);
        link(upstreamStep, upstream);
        parent = process(null, List.of(), 1, null);
        step = process(parent, List.of(upstream), 12, null);
        link(parent, step);
        link(step, parent);
        lifecycleParent = process(null, List.of(), 1, null);
        lifecycleStep = process(lifecycleParent, List.of(), 12, null);
        link(lifecycleParent, lifecycleStep);
        link(lifecycleStep, lifecycleParent);
        standalone = process(null, List.of(), 2, 2);
        standaloneStep = process(standalone, List.of(), 22, null);
        link(standalone, standaloneStep);
        link(standaloneStep, standalone);
        policyParent = process(null, List.of(), 2, 2);
        long policyStep = process(policyParent, List.of(), 22, null);
        link(policyParent, policyStep);
        link(policyStep, policyParent);
        etlParent = process(null, List.of(), 1, null);
        for (long[] known : new long[][] {{upstreamStep, upstream}, {step, parent}, {lifecycleStep, lifecycleParent},
                {standaloneStep, standalone}, {policyStep, policyParent}}) {
            RegistryFixtures.awaitKnown(stack, known[0], known[1], WAIT);
        }
        progress("application " + app + " and its processes");

        // A run of P over a batch of U: archived for P's step afterwards; a second batch stays queued.
        archivedBatch = enqueue(upstream);
        JsonPath init = execution().body(Map.of("maxBatch", 1)).post("/jobs/" + parent + "/init").then()
                .statusCode(200).extract().jsonPath();
        run = init.getLong("instanceExecId");
        targetBatch = init.getLong("targetBatchId");
        execution().post("/steps/" + step + "/init").then().statusCode(200);
        execution().post("/steps/" + step + "/halt").then().statusCode(200);
        execution().body(Map.of("batchMarking", "acl")).post("/jobs/" + parent + "/halt").then().statusCode(200);
        queuedBatch = enqueue(upstream);
        logId = execution().body(Map.of("category", logCategory, "messageId", logMessageId, "message", "1",
                        "instanceRef", run)).post("/processes/" + parent + "/log").then()
                .statusCode(201).extract().jsonPath().getLong("logId");
        deployment = execution().post("/processes/" + parent + "/deployments").then().statusCode(201).extract()
                .jsonPath().getLong("deploymentId");
        deadline = deadlineOf(parent);
        runnerRun = runnerRun();
        backfillPlan = execution().body(Map.of("roots", List.of(Map.of("processId", standalone)),
                        "fromBucket", completedBucket, "toBucket", completedBucket)).post("/backfills/preview").then()
                .statusCode(201).extract().jsonPath().getString("planId");
        backfill = execution().body(Map.of("planId", backfillPlan)).post("/backfills").then().statusCode(202)
                .extract().jsonPath().getString("backfill.backfillId");
        putDailyPolicy(policyParent);
        progress("runs " + run + " and " + runnerRun + ", batches, process log, deployment");

        hiveDb = "acl_" + tag;
        hiveTable = hiveTable("raw_" + tag, "TABLE");
        hiveView = hiveTable("raw_view_" + tag, "VIEW");
        registry().body(Map.of("rawTableId", hiveTable, "rawViewId", hiveView))
                .put("/processes/" + parent + "/etl-driver").then().statusCode(200);
        registry().body(Map.of("configGroup", "param", "value", "1"))
                .put("/processes/" + parent + "/properties/" + propertyKey).then().statusCode(200);
        template = template();
        registry().body(Map.of("configGroup", "param", "value", "1"))
                .put("/process-templates/" + template + "/properties/" + propertyKey).then().statusCode(200);
        server = freshServer();
        progress("Hive tables, ETL driver, properties, template " + template + ", server " + server);

        lineageDb = "acl_" + tag;
        sourceTable = lineageDb + ".orders";
        targetTable = lineageDb + ".daily";
        for (String table : List.of(sourceTable, targetTable)) {
            lineage().body(Map.of("columns", List.of("id", "amount"))).put("/tables/" + table).then().statusCode(200);
        }
        query = lineage().body(queryBody(step)).post("/queries").then().statusCode(201).extract().jsonPath()
                .getString("id");
        progress("lineage query " + query);

        compactionSchema = "acl_" + tag;
        compactionTableName = "events";
        compactionTable = compactionTable(compactionTableName);
        droppableTable = compactionTable("dropped");
        String past = LocalDate.now(ZoneOffset.UTC).minusDays(2).toString();
        jobPartitionDate = LocalDate.now(ZoneOffset.UTC).toString();
        register(past, writeObject(past, "good", "{\"eventTime\": 1, \"id\": 1}\n"));
        quarantinedKey = writeObject(past, "bad", "this is not JSON\n");
        register(past, quarantinedKey);
        partition = partitionOf(past);
        register(jobPartitionDate, writeObject(jobPartitionDate, "pending", "{\"eventTime\": 2, \"id\": 2}\n"));
        jobPartition = partitionOf(jobPartitionDate);
        unregisteredKey = writeObject(jobPartitionDate, "late", "{\"eventTime\": 3, \"id\": 3}\n");
        mergeJob = queue().queryParam("partitionId", jobPartition).get("/compaction/jobs").then().statusCode(200)
                .extract().jsonPath().getLong("items[0].jobId");
        mergeAndPublish();
        progress("compaction table " + compactionTable + ", partitions " + partition + " and " + jobPartition);

        awaitPermissionsKnown();
    }

    /** X's permission settings now. */
    ApplicationAccess current() {
        return current;
    }

    /** X's permission settings now, as {@code PUT /applications/{id}/permissions} takes them. */
    Map<String, Object> permissions() {
        Map<String, Object> body = new HashMap<>();
        body.put("ownerUser", current.ownerUser());
        body.put("ownerGroup", current.ownerGroup());
        body.put("owner", current.owner());
        body.put("group", current.group());
        body.put("others", current.others());
        return body;
    }

    /**
     * The owner gives X's group the permission type {@code type}; waits until the services that learn it from
     * registry-service's events let the group act on it (a service still refusing after the wait is left to the
     * matrix to report).
     */
    void giveTheGroup(int type) {
        current = new ApplicationAccess(0, OWNER_USER, TEAM, current.owner(), type, current.others());
        given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .auth().oauth2(Identity.get().token(OWNER_USER, "developer")).body(permissions())
                .put("/applications/" + app + "/permissions").then().statusCode(200);
        String operator = Identity.get().token("acl-operator", Set.of("operator"), Set.of(TEAM));
        String developer = Identity.get().token("acl-developer", Set.of("developer"), Set.of(TEAM));
        Map<String, Callable<Boolean>> learnt = new LinkedHashMap<>();
        learnt.put("execution-service", () -> given().baseUri(stack.execution.url()).contentType(ContentType.JSON)
                .auth().oauth2(operator).body(Map.of("policy", "none")).put("/processes/" + parent + "/trigger")
                .statusCode() == 200);
        learnt.put("queue-service", () -> given().baseUri(stack.queue.url()).contentType(ContentType.JSON)
                .auth().oauth2(operator).post("/compaction/partitions/" + partition + "/merge").statusCode() == 200);
        learnt.put("lineage-service", () -> given().baseUri(stack.lineage.url()).contentType(ContentType.JSON)
                .auth().oauth2(developer).body(queryBody(step)).post("/queries").statusCode() == 201);
        awaitEach(learnt, "the group of application " + app + " has " + type);
    }

    /** A name no earlier call of this run used. */
    String unique(String prefix) {
        return prefix + "_" + tag + "_" + sequence.incrementAndGet();
    }

    // ---- objects made again for each call that may remove them for good

    /** An application without processes (its delete is not refused for being in use). */
    long freshApplication() {
        return registry().body(Map.of("name", unique("acl-app"), "description", "access matrix", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** A parent of X without steps. */
    long freshParent() {
        return process(null, List.of(), 1, null);
    }

    long freshTemplate() {
        return registry().body(templateBody(app, unique("tpl"))).post("/process-templates").then().statusCode(201)
                .extract().jsonPath().getLong("templateId");
    }

    long freshHiveTable() {
        return hiveTable(unique("drop"), "TABLE");
    }

    long freshServer() {
        return registry().body(serverBody(unique("acl-server"))).post("/servers").then().statusCode(201).extract()
                .jsonPath().getLong("id");
    }

    /** A property of P made for one delete; its key. */
    String freshProcessProperty() {
        String key = unique("del");
        registry().body(Map.of("configGroup", "param", "value", "1")).put("/processes/" + parent + "/properties/" + key)
                .then().statusCode(200);
        return key;
    }

    /** A property template of the template made for one delete; its key. */
    String freshTemplateProperty() {
        String key = unique("del");
        registry().body(Map.of("configGroup", "param", "value", "1"))
                .put("/process-templates/" + template + "/properties/" + key).then().statusCode(200);
        return key;
    }

    /** The ETL parent, with its driver set again. */
    long freshEtlDriver() {
        registry().body(Map.of("rawTableId", hiveTable, "rawViewId", hiveView))
                .put("/processes/" + etlParent + "/etl-driver").then().statusCode(200);
        return etlParent;
    }

    /** A new parent with data deadlines, for a caller allowed to remove them. */
    long freshDeadlines() {
        long fresh = freshParent();
        putDeadlines(fresh);
        return fresh;
    }

    private void putDeadlines(long processId) {
        registry().body(Map.of("zone", "UTC", "finishBy", "PT6H")).put("/processes/" + processId + "/deadlines")
                .then().statusCode(200);
    }

    /** Sets the parent's deadlines and waits until execution-service has the one of the day in progress. */
    private long deadlineOf(long processId) {
        putDeadlines(processId);
        long[] found = new long[1];
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            List<Long> ids = execution().get("/deadlines?processId=" + processId).then().statusCode(200).extract()
                    .jsonPath().getList("items.deadlineId", Long.class);
            found[0] = ids.isEmpty() ? 0 : ids.get(0);
            return !ids.isEmpty();
        });
        return found[0];
    }

    /** The policy parent, with its run policy set again. */
    long freshRunPolicy() {
        putDailyPolicy(policyParent);
        return policyParent;
    }

    // ---- request bodies the matrix sends as well

    Map<String, Object> processBody(long application, String name) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("description", "access matrix");
        body.put("applicationId", application);
        body.put("processTypeId", 1);
        return body;
    }

    Map<String, Object> templateBody(long application, String name) {
        return Map.of("name", name, "description", "access matrix", "applicationId", application, "processTypeId", 1);
    }

    Map<String, Object> hiveTableBody(long application, String table, String type) {
        return Map.of("applicationId", application, "locationType", "HDFS", "dbName", hiveDb, "tableName", table,
                "type", type, "ddl", "CREATE " + type + " " + hiveDb + "." + table + " (id INT)",
                "comments", "access matrix");
    }

    Map<String, Object> serverBody(String name) {
        return Map.of("serverType", "sftp", "serverName", name, "serverIp", "127.0.0.1", "serverPort", 22);
    }

    Map<String, Object> queryBody(long process) {
        return Map.of("queryType", "HIVE", "processId", process, "defaultDatabase", lineageDb,
                "queryText", "INSERT OVERWRITE TABLE " + targetTable + " SELECT id, sum(amount) AS amount FROM "
                        + sourceTable + " GROUP BY id");
    }

    Map<String, Object> batchBody(long enqueuingProcess) {
        return Map.of("enqueuingProcessId", enqueuingProcess, "serverId", SERVER, "batchMarking", "acl",
                "files", List.of(Map.of("path", "/landing/" + unique("file"), "fileSize", 1)));
    }

    Map<String, Object> compactionTableBody(long application, String table) {
        return Map.of("applicationId", application, "schemaName", compactionSchema, "tableName", table,
                "mergeIntervalSeconds", 43200);
    }

    // ---- the set-up's own steps

    private long process(Long parentId, List<Long> enqueuers, int type, Integer workflowType) {
        Map<String, Object> body = processBody(app, (parentId == null ? "job-" : "step-") + unique("p"));
        body.put("processTypeId", type);
        body.put("parentProcessId", parentId);
        body.put("enqueuingProcessIds", enqueuers);
        if (workflowType != null) {
            body.put("workflowTypeId", workflowType);
        }
        return registry().body(body).post("/processes").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private void link(long process, long next) {
        RegistryFixtures.link(stack, process, next);
    }

    private long enqueue(long enqueuingProcess) {
        return queue().body(batchBody(enqueuingProcess)).post("/batches").then().statusCode(201).extract().jsonPath()
                .getLong("batchId");
    }

    /**
     * The stand-alone parent's step runs a script that prints a line (its run's output is the run log) and fails for
     * {@link #failedBucket}, whose run is left FAILED for the retries.
     */
    private long runnerRun() {
        Path script = Stack.sharedScriptDir().resolve("acl-matrix.sh");
        try {
            Files.writeString(script, "#!/bin/sh\ncase \"$*\" in *" + failedBucket + "*) echo failing >&2; exit 3;;"
                    + " esac\necho \"access matrix $*\"\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        registry().body(Map.of("configGroup", "script", "value", "acl-matrix.sh"))
                .put("/processes/" + standaloneStep + "/properties/script").then().statusCode(200);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> execution()
                .get("/process-definitions/" + standaloneStep).asString().contains("acl-matrix.sh"));
        putRunPolicy(standalone);
        execution().body(Map.of("bucket", completedBucket)).post("/runner/processes/" + standalone + "/buckets")
                .then().statusCode(201);
        // The scheduler's tick may claim the bucket first (then the launch answers 200 with why); it runs either way.
        execution().post("/runner/processes/" + standalone + "/launch").then().statusCode(Matchers.oneOf(200, 202));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> "COMPLETE".equals(execution()
                .get("/runner/processes/" + standalone + "/buckets").jsonPath().getString("items[0].status")));
        long completed = execution().get("/runner/processes/" + standalone + "/buckets").jsonPath()
                .getLong("items[0].instanceExecId");
        execution().body(Map.of("bucket", failedBucket)).post("/runner/processes/" + standalone + "/buckets")
                .then().statusCode(201);
        execution().post("/runner/processes/" + standalone + "/launch").then().statusCode(Matchers.oneOf(200, 202));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> "FAILED".equals(execution()
                .queryParam("status", "FAILED").get("/runner/processes/" + standalone + "/buckets").jsonPath()
                .getString("items.find { it.bucket == '" + failedBucket + "' }.status")));
        return completed;
    }

    private void putRunPolicy(long process) {
        execution().body(Map.of()).put("/runner/processes/" + process).then().statusCode(200);
    }

    private void putDailyPolicy(long process) {
        execution().body(Map.of("bucket", "YYYYMMDD", "enabled", false)).put("/runner/processes/" + process).then()
                .statusCode(200);
    }

    private long hiveTable(String table, String type) {
        return registry().body(hiveTableBody(app, table, type)).post("/hive-tables").then().statusCode(201).extract()
                .jsonPath().getLong("id");
    }

    private long template() {
        long parentTemplate = freshTemplate();
        Map<String, Object> stepTemplate = new HashMap<>(templateBody(app, unique("tpl-step")));
        stepTemplate.put("processTypeId", 12);
        stepTemplate.put("parentTemplateId", parentTemplate);
        long stepTemplateId = registry().body(stepTemplate).post("/process-templates").then().statusCode(201).extract()
                .jsonPath().getLong("templateId");
        registry().body(Map.of("nextTemplateIds", List.of(stepTemplateId)))
                .patch("/process-templates/" + parentTemplate).then().statusCode(200);
        registry().body(Map.of("nextTemplateIds", List.of(parentTemplate)))
                .patch("/process-templates/" + stepTemplateId).then().statusCode(200);
        return parentTemplate;
    }

    private long compactionTable(String table) {
        Response created = queue().body(compactionTableBody(app, table)).post("/compaction/tables");
        created.then().statusCode(201);
        return created.jsonPath().getLong("tableId");
    }

    /** Writes a JSON-lines object under the table's folder of queue-service's store; its key. */
    String writeObject(String date, String name, String content) {
        String key = compactionSchema + "/" + compactionTableName + "/dt=" + date + "/" + name + ".json";
        Path file = stack.compactionStore().resolve(key);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return key;
    }

    Map<String, Object> objectBody(String table, String date, String key) {
        return Map.of("schemaName", compactionSchema, "tableName", table, "partitionDate", date, "objectKey", key);
    }

    private void register(String date, String key) {
        queue().body(objectBody(compactionTableName, date, key)).post("/compaction/objects").then().statusCode(201);
    }

    private long partitionOf(String date) {
        List<Map<String, Object>> items = queue().queryParam("tableId", compactionTable).get("/compaction/partitions")
                .then().statusCode(200).extract().jsonPath().getList("items");
        return items.stream().filter(p -> date.equals(p.get("partitionDate"))).mapToLong(p -> ((Number) p.get(
                "partitionId")).longValue()).findFirst().orElseThrow(() -> new AssertionError("no partition " + date));
    }

    /**
     * Merges the past partition now (its bad object is quarantined by that merge), then lets the catalog step close,
     * switch and publish it, so that its manifest, ranges, quarantine and read location all have something to show.
     */
    private void mergeAndPublish() {
        queue().post("/compaction/partitions/" + partition + "/merge").then().statusCode(200);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> !queue()
                .get("/compaction/partitions/" + partition + "/quarantine").jsonPath().getList("items").isEmpty());
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            queue().post("/compaction/catalog/sync").then().statusCode(200);
            return queue().get("/compaction/partitions/" + partition + "/manifest").statusCode() == 200;
        });
    }

    /**
     * The services learn X's permissions and processes from registry-service's events: waits until a member of X's
     * group may read P everywhere (a service that does not check yet answers at once). A service that still refuses
     * after the wait is left to the matrix to report.
     */
    private void awaitPermissionsKnown() {
        String reader = Identity.get().token("acl-reader", Set.of("viewer"), Set.of(TEAM));
        Map<String, Callable<Boolean>> known = new LinkedHashMap<>();
        known.put("execution-service", () -> ok(stack.execution.url(), "/process-definitions/" + parent, reader));
        known.put("queue-service", () -> ok(stack.queue.url(), "/process-definitions/" + parent, reader));
        known.put("lineage-service", () -> ok(stack.lineage.url(), "/lineage/processes/" + parent, reader)
                && ok(stack.lineage.url(), "/openlineage/runs/" + run, reader)
                && ok(stack.lineage.url(), "/lineage/batches/" + targetBatch, reader));
        known.put("dashboard", () -> given().baseUri(dashboard.url()).auth().oauth2(reader).get("/api/snapshot")
                .then().extract().jsonPath().getList("parents.processId", Long.class).contains(parent));
        awaitEach(known, "a reader of application " + app + " reads it");
    }

    private static void awaitEach(Map<String, Callable<Boolean>> checks, String what) {
        checks.forEach((service, check) -> {
            try {
                await().atMost(PROPAGATION).pollInterval(Duration.ofMillis(500)).until(check);
            } catch (ConditionTimeoutException e) {
                progress(service + ": still not so after " + PROPAGATION + ": " + what);
            }
        });
        progress(what + " (or waited for it) everywhere");
    }

    private static boolean ok(String base, String path, String token) {
        return given().baseUri(base).auth().oauth2(token).get(path).statusCode() == 200;
    }

    private static void progress(String what) {
        System.out.println("[access-matrix] set up: " + what);
    }

    private RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }

    private RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).contentType(ContentType.JSON);
    }

    private RequestSpecification queue() {
        return given().baseUri(stack.queue.url()).contentType(ContentType.JSON);
    }

    private RequestSpecification lineage() {
        return given().baseUri(stack.lineage.url()).contentType(ContentType.JSON);
    }
}
