package io.batchyard.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the access matrix calls each operation of each service: with the real objects of application X
 * ({@link AccessFixtures}), a body the operation accepts, and, for lists, where the fixture's object shows in the
 * answer. Each probe names the object whose application the policy guards; the same call with that object replaced by
 * one that does not exist is the "twin" a hidden object must answer like.
 */
final class AccessProbes {

    /**
     * Operations whose "allowed" answer is not judged (only that it is neither 401 nor 403 nor a 5xx), and why: the
     * stack the matrix runs cannot let them succeed. Refusals (401, 403 with its code, hidden from a stranger) are
     * still judged.
     */
    static final Map<String, String> ALLOWED_NOT_JUDGED = clock();

    /**
     * Lists whose answer is not searched for the fixture's object, and why (their status, 200, is still judged).
     */
    static final Map<String, String> VISIBILITY_NOT_JUDGED = Map.of(
            "queue-service: GET /compaction/audit",
            "it lists operator actions (drop, replay, rebuild), which the matrix's own calls add in an order it does"
                    + " not fix",
            "dashboard: GET /api/panels/lineage/tables/{table}",
            "an SVG drawing, not a list of objects with ids",
            "dashboard: GET /api/panels/deadlines",
            "it lists open deadlines only, and the matrix's own POST /deadlines/{id}/waive closes the fixture's one in"
                    + " an order it does not fix",
            "dashboard: GET /api/panels/backfills",
            "it shows the live backfills and the last five ended, and the matrix's own POST"
                    + " /backfills/{backfillId}/cancel ends the fixture's one in an order it does not fix; its rows are"
                    + " execution-service's GET /backfills to the viewer's own token, whose visibility is judged",
            "dashboard: GET /api/panels/triggers",
            "it shows only parents with a trigger policy among those asked for, and the fixture's parent has none;"
                    + " the panel asks execution-service with the viewer's own token, which answers a parent the viewer"
                    + " may not read as unknown");

    /**
     * The packaged services run in the prod profile, where a movable clock is refused
     * ({@code batchyard.clock.movable=false}): the clock endpoints answer an administrator 404 (428 or 323) by design.
     */
    private static Map<String, String> clock() {
        Map<String, String> clock = new LinkedHashMap<>();
        for (String service : List.of("execution-service", "queue-service")) {
            for (String method : List.of("GET", "PUT", "DELETE")) {
                clock.put(service + ": " + method + " /admin/clock", "the clock cannot be moved in the prod profile the"
                        + " packaged services run in (batchyard.clock.movable=false): 404 to everyone allowed");
            }
        }
        return Map.copyOf(clock);
    }

    /** An id no fixture has: the twin of a guarded object. */
    static final long NO_SUCH_ID = 987_654_321L;

    /**
     * One HTTP call of an operation: its path parameters in the order the path template names them, its query and
     * its JSON body (null for none).
     */
    record Call(List<Object> path, Map<String, Object> query, Object body) {

        Call query(String name, Object value) {
            Map<String, Object> q = new LinkedHashMap<>(query);
            q.put(name, value);
            return new Call(path, q, body);
        }

        Call body(Object json) {
            return new Call(path, query, json);
        }
    }

    /** Where a list shows the fixture's object: the values at {@code jsonPath} (dotted, through arrays). */
    record Seen(String jsonPath, Supplier<Object> id) {
    }

    /**
     * How to call one operation.
     *
     * @param object the guarded object (an id, a UUID or a name), asked again for every call (fresh objects for
     *               deletes); null for operations that guard none
     * @param call   the call for a given object (the real one, or {@link #twinOf} it)
     * @param seen   for lists: where the fixture's object shows; null when not searched
     */
    record Probe(String service, String operation, Supplier<Object> object, Function<Object, Call> call, Seen seen) {

        String key() {
            return service + ": " + operation;
        }

        String method() {
            return operation.substring(0, operation.indexOf(' '));
        }

        String template() {
            return operation.substring(operation.indexOf(' ') + 1);
        }

        /** Reads first, then writes, then removals, so that no removal runs before a read of the same kind. */
        int phase() {
            if (method().equals("GET")) {
                return 0;
            }
            return method().equals("DELETE") || operation.endsWith("/drop") ? 2 : 1;
        }
    }

    private AccessProbes() {
    }

    /** The object nothing has: the twin of {@code object}. */
    static Object twinOf(Object object) {
        if (object instanceof UUID || object instanceof String s && s.matches("[0-9a-f-]{36}")) {
            return UUID.randomUUID().toString();
        }
        if (object instanceof String) {
            return "no_such_" + object;
        }
        return NO_SUCH_ID;
    }

    static Call at(Object... path) {
        return new Call(Arrays.asList(path), Map.of(), null);
    }

    /** Every probe, for every service; the matrix fails for a live operation without one. */
    static List<Probe> all(AccessFixtures fx) {
        List<Probe> probes = new ArrayList<>();
        registry(fx, probes);
        execution(fx, probes);
        queue(fx, probes);
        lineage(fx, probes);
        dashboard(fx, probes);
        return probes;
    }

    private static void registry(AccessFixtures fx, List<Probe> p) {
        String s = "registry-service";
        p.add(list(s, "GET /applications", at().query("name", fx.appName), "items.id", () -> fx.app));
        p.add(none(s, "POST /applications", () -> at().body(Map.of("name", fx.unique("acl-new"),
                "description", "access matrix", "owner", "e2e"))));
        p.add(guarded(s, "GET /applications/{id}", () -> fx.app, AccessProbes::at));
        p.add(guarded(s, "PUT /applications/{id}", () -> fx.app, id -> at(id).body(Map.of("name", fx.appName,
                "description", "access matrix", "owner", AccessFixtures.OWNER_USER))));
        p.add(none(s, "DELETE /applications/{id}", () -> at(fx.freshApplication())));
        p.add(guarded(s, "GET /applications/{id}/permissions", () -> fx.app, AccessProbes::at));
        p.add(guarded(s, "PUT /applications/{id}/permissions", () -> fx.app, id -> at(id).body(fx.permissions())));
        for (String master : List.of("/audit", "/batch-states", "/deploy-statuses", "/exec-states",
                "/lineage-node-types", "/lineage-query-types", "/permission-types", "/process-types",
                "/workflow-types")) {
            p.add(none(s, "GET " + master, AccessProbes::at));
        }
        p.add(list(s, "GET /hive-tables", at().query("dbName", fx.hiveDb).query("limit", 500), "items.id",
                () -> fx.hiveTable));
        p.add(guarded(s, "POST /hive-tables", () -> fx.app,
                app -> at().body(fx.hiveTableBody((Long) app, fx.unique("new"), "TABLE"))));
        p.add(guarded(s, "GET /hive-tables/{id}", () -> fx.hiveTable, AccessProbes::at));
        // a name of its own each time: the twin must not collide with the real table's name
        p.add(guarded(s, "PUT /hive-tables/{id}", () -> fx.hiveTable,
                id -> at(id).body(fx.hiveTableBody(fx.app, fx.unique("raw"), "TABLE"))));
        p.add(guarded(s, "DELETE /hive-tables/{id}", fx::freshHiveTable, AccessProbes::at));
        p.add(list(s, "GET /process-templates", at().query("limit", 500), "items.templateId", () -> fx.template));
        p.add(guarded(s, "POST /process-templates", () -> fx.app,
                app -> at().body(fx.templateBody((Long) app, fx.unique("tpl")))));
        p.add(guarded(s, "GET /process-templates/{id}", () -> fx.template, AccessProbes::at));
        p.add(guarded(s, "PATCH /process-templates/{id}", () -> fx.template,
                id -> at(id).body(Map.of("description", "access matrix"))));
        p.add(guarded(s, "DELETE /process-templates/{id}", fx::freshTemplate, AccessProbes::at));
        p.add(guarded(s, "POST /process-templates/{id}/instantiate", () -> fx.template,
                id -> at(id).body(Map.of("applicationId", fx.app, "namePrefix", "i"))));
        p.add(guarded(s, "GET /process-templates/{id}/properties", () -> fx.template, AccessProbes::at));
        p.add(guarded(s, "PUT /process-templates/{id}/properties/{key}", () -> fx.template,
                id -> at(id, fx.propertyKey).body(Map.of("configGroup", "param", "value", "1"))));
        p.add(guarded(s, "DELETE /process-templates/{id}/properties/{key}", () -> fx.template,
                id -> at(id, fx.freshTemplateProperty())));
        p.add(guarded(s, "GET /process-templates/{id}/tree", () -> fx.template, AccessProbes::at));
        p.add(list(s, "GET /processes", at().query("applicationId", fx.app).query("limit", 500), "items.id",
                () -> fx.parent));
        p.add(guarded(s, "POST /processes", () -> fx.app,
                app -> at().body(fx.processBody((Long) app, fx.unique("new")))));
        p.add(guarded(s, "GET /processes/{id}", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "PATCH /processes/{id}", () -> fx.parent,
                id -> at(id).body(Map.of("description", "access matrix"))));
        p.add(guarded(s, "DELETE /processes/{id}", fx::freshParent, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{id}/deadlines", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "PUT /processes/{id}/deadlines", () -> fx.parent,
                id -> at(id).body(Map.of("zone", "UTC", "finishBy", "PT6H"))));
        p.add(guarded(s, "DELETE /processes/{id}/deadlines", fx::freshDeadlines, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{id}/etl-driver", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "PUT /processes/{id}/etl-driver", () -> fx.parent,
                id -> at(id).body(Map.of("rawTableId", fx.hiveTable, "rawViewId", fx.hiveView))));
        p.add(guarded(s, "DELETE /processes/{id}/etl-driver", fx::freshEtlDriver, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{id}/properties", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{id}/properties/{key}", () -> fx.parent, id -> at(id, fx.propertyKey)));
        p.add(guarded(s, "PUT /processes/{id}/properties/{key}", () -> fx.parent,
                id -> at(id, fx.propertyKey).body(Map.of("configGroup", "param", "value", "1"))));
        p.add(guarded(s, "DELETE /processes/{id}/properties/{key}", () -> fx.parent,
                id -> at(id, fx.freshProcessProperty())));
        p.add(guarded(s, "GET /processes/{id}/tree", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{id}/workflow", () -> fx.parent, AccessProbes::at));
        // A pipeline names its application; the plan it carries saw nothing (no description, no processes), so a
        // caller allowed to write is answered on the merits (409, changed since the plan) and writes nothing.
        p.add(guarded(s, "POST /pipelines/apply", () -> fx.app, app -> at().body(Map.of(
                "application", Map.of("name", Long.valueOf(fx.app).equals(app) ? fx.appName : "no-such-" + fx.tag,
                        "description", "access matrix", "owner", "e2e"),
                "expected", Map.of("applicationExists", true, "processes", List.of()),
                "changes", List.of()))));
        p.add(none(s, "GET /servers", AccessProbes::at));
        p.add(none(s, "POST /servers", () -> at().body(fx.serverBody(fx.unique("acl-server")))));
        p.add(none(s, "POST /servers/re-encrypt", AccessProbes::at));
        p.add(none(s, "GET /servers/{id}", () -> at(fx.server)));
        p.add(none(s, "PUT /servers/{id}", () -> at(fx.server).body(fx.serverBody("acl-server-" + fx.tag))));
        p.add(none(s, "DELETE /servers/{id}", () -> at(fx.freshServer())));
    }

    private static void execution(AccessFixtures fx, List<Probe> p) {
        String s = "execution-service";
        clock(s, p);
        p.add(none(s, "GET /audit", AccessProbes::at));
        p.add(guarded(s, "POST /backfills", () -> fx.backfillPlan, plan -> at().body(Map.of("planId", plan))));
        p.add(guarded(s, "GET /backfills/plans/{planId}", () -> fx.backfillPlan, AccessProbes::at));
        p.add(guarded(s, "POST /backfills/preview", () -> fx.standalone, pid -> at().body(Map.of(
                "roots", List.of(Map.of("processId", pid)), "batchIds", List.of(1)))));
        p.add(guarded(s, "GET /backfills/{backfillId}", () -> fx.backfill, AccessProbes::at));
        for (String action : List.of("pause", "resume", "cancel")) {
            p.add(guarded(s, "POST /backfills/{backfillId}/" + action, () -> fx.backfill, AccessProbes::at));
        }
        p.add(list(s, "GET /backfills", at().query("limit", 500), "items.backfill.backfillId", () -> fx.backfill));
        p.add(list(s, "GET /deadlines", at().query("processId", fx.parent), "items.deadlineId", () -> fx.deadline));
        p.add(guarded(s, "GET /deadlines/{id}", () -> fx.deadline, AccessProbes::at));
        p.add(guarded(s, "POST /deadlines/{id}/waive", () -> fx.deadline,
                id -> at(id).body(Map.of("reason", "access matrix"))));
        p.add(guarded(s, "GET /deployments/{id}", () -> fx.deployment, AccessProbes::at));
        p.add(guarded(s, "POST /deployments/{id}/halt", () -> fx.deployment, AccessProbes::at));
        p.add(guarded(s, "POST /deployments/{id}/init", () -> fx.deployment, AccessProbes::at));
        p.add(guarded(s, "POST /deployments/{id}/term", () -> fx.deployment,
                id -> at(id).body(Map.of("text", "access matrix"))));
        // A lifecycle in its own order, so that the first caller let through makes each call on a run in progress.
        p.add(guarded(s, "POST /jobs/{pid}/init", () -> fx.lifecycleParent, id -> at(id).body(Map.of("maxBatch", 1))));
        p.add(guarded(s, "POST /steps/{sid}/init", () -> fx.lifecycleStep, AccessProbes::at));
        p.add(guarded(s, "POST /steps/{sids}/halt", () -> fx.lifecycleStep, AccessProbes::at));
        p.add(guarded(s, "POST /steps/{sid}/term", () -> fx.lifecycleStep, AccessProbes::at));
        p.add(guarded(s, "POST /jobs/{pid}/halt", () -> fx.lifecycleParent,
                id -> at(id).body(Map.of("batchMarking", "acl"))));
        p.add(guarded(s, "POST /jobs/{pid}/term", () -> fx.lifecycleParent,
                id -> at(id).body(Map.of("code", 1, "text", "access matrix"))));
        p.add(guarded(s, "GET /process-definitions/{id}", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /process-definitions/{id}/tree", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{pid}/deployments", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "POST /processes/{pid}/deployments", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{pid}/deployments/latest", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /processes/{pid}/log", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "POST /processes/{pid}/log", () -> fx.parent, id -> at(id).body(Map.of(
                "category", fx.logCategory, "messageId", "acl-matrix", "message", "1"))));
        p.add(guarded(s, "GET /processes/{pid}/log/last", () -> fx.parent,
                id -> at(id).query("messageId", fx.logMessageId).query("category", fx.logCategory)));
        p.add(guarded(s, "GET /processes/{pid}/log/last-instance", () -> fx.parent,
                id -> at(id).query("messageId", fx.logMessageId)));
        p.add(guarded(s, "GET /processes/{pid}/log/{logId}", () -> fx.parent, id -> at(id, fx.logId)));
        p.add(guarded(s, "GET /processes/{pid}/trigger", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "PUT /processes/{pid}/trigger", () -> fx.parent,
                id -> at(id).body(Map.of("policy", "none"))));
        p.add(guarded(s, "POST /processes/{pid}/trigger/pause", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "POST /processes/{pid}/trigger/resume", () -> fx.parent,
                id -> at(id).body(Map.of("mode", "catch-up"))));
        p.add(guarded(s, "GET /processes/{pid}/trigger/resume-preview", () -> fx.parent,
                id -> at(id).query("mode", "skip")));
        p.add(guarded(s, "GET /processes/{pid}/trigger/runs", () -> fx.parent, AccessProbes::at));
        p.add(none(s, "GET /runner/bucket-keys", AccessProbes::at));
        p.add(none(s, "PUT /runner/bucket-keys/{key}", () -> at("AclMatrix").body(Map.of("script", "acl-matrix.sh"))));
        p.add(guarded(s, "GET /runner/processes/{pid}", () -> fx.standalone, AccessProbes::at));
        p.add(guarded(s, "PUT /runner/processes/{pid}", () -> fx.standalone, id -> at(id).body(Map.of())));
        p.add(guarded(s, "DELETE /runner/processes/{pid}", fx::freshRunPolicy, AccessProbes::at));
        p.add(guarded(s, "POST /runner/processes/{pid}/backfill", () -> fx.policyParent,
                id -> at(id).body(Map.of("from", "20260101", "to", "20260102"))));
        p.add(guarded(s, "GET /runner/processes/{pid}/buckets", () -> fx.standalone, AccessProbes::at));
        p.add(guarded(s, "POST /runner/processes/{pid}/buckets", () -> fx.standalone,
                id -> at(id).body(Map.of("bucket", "acl-more"))));
        p.add(guarded(s, "POST /runner/processes/{pid}/buckets/{bucket}/retry", () -> fx.standalone,
                id -> at(id, fx.failedBucket)));
        p.add(guarded(s, "POST /runner/processes/{pid}/launch", () -> fx.standalone, AccessProbes::at));
        p.add(guarded(s, "GET /runner/processes/{pid}/steps/{sid}", () -> fx.standalone,
                id -> at(id, fx.standaloneStep)));
        p.add(guarded(s, "PUT /runner/processes/{pid}/steps/{sid}", () -> fx.standalone,
                id -> at(id, fx.standaloneStep).body(Map.of("enabled", true))));
        p.add(list(s, "GET /runs", at().query("processId", fx.parent), "items.instanceExecId", () -> fx.run));
        p.add(guarded(s, "GET /runs/{id}", () -> fx.run, AccessProbes::at));
        p.add(guarded(s, "GET /runs/{id}/history", () -> fx.run, AccessProbes::at));
        p.add(guarded(s, "GET /runs/{ie}/log", () -> fx.runnerRun, AccessProbes::at));
        p.add(guarded(s, "GET /why/{pid}", () -> fx.standalone, AccessProbes::at));
    }

    private static void queue(AccessFixtures fx, List<Probe> p) {
        String s = "queue-service";
        clock(s, p);
        p.add(list(s, "GET /archive", at().query("processId", fx.step), "items.sourceBatchId", () -> fx.archivedBatch));
        p.add(none(s, "GET /audit", AccessProbes::at));
        p.add(guarded(s, "POST /batches", () -> fx.upstream, pid -> at().body(fx.batchBody((Long) pid))));
        p.add(guarded(s, "GET /batches/{batchId}", () -> fx.targetBatch, AccessProbes::at));
        p.add(guarded(s, "POST /batches/{batchId}/enqueue", () -> fx.lifecycleStep, pid -> at(fx.archivedBatch)
                .body(Map.of("processId", pid, "sourceProcessId", fx.upstream, "batchMarking", "acl"))));
        p.add(list(s, "GET /compaction/audit", at().query("limit", 500), null, null));
        p.add(none(s, "POST /compaction/catalog/sync", AccessProbes::at));
        p.add(list(s, "GET /compaction/jobs", at().query("partitionId", fx.jobPartition), "items.jobId",
                () -> fx.mergeJob));
        p.add(guarded(s, "POST /compaction/jobs/{id}/retry", () -> fx.mergeJob, AccessProbes::at));
        p.add(guarded(s, "POST /compaction/objects", () -> fx.compactionTableName,
                table -> at().body(fx.objectBody((String) table, fx.jobPartitionDate, fx.unregisteredKey))));
        p.add(list(s, "GET /compaction/partitions", at().query("tableId", fx.compactionTable), "items.partitionId",
                () -> fx.partition));
        p.add(guarded(s, "GET /compaction/partitions/{id}", () -> fx.partition, AccessProbes::at));
        for (String action : List.of("close", "gc", "merge", "rebuild")) {
            p.add(guarded(s, "POST /compaction/partitions/{id}/" + action, () -> fx.partition, AccessProbes::at));
        }
        for (String read : List.of("manifest", "objects", "quarantine", "ranges", "read-location")) {
            p.add(guarded(s, "GET /compaction/partitions/{id}/" + read, () -> fx.partition, AccessProbes::at));
        }
        for (String action : List.of("drop", "release")) {
            p.add(guarded(s, "POST /compaction/partitions/{id}/quarantine/" + action, () -> fx.partition,
                    id -> at(id).query("objectKey", fx.quarantinedKey)));
        }
        p.add(guarded(s, "POST /compaction/replay", () -> fx.compactionTableName, table -> at().body(Map.of(
                "schemaName", fx.compactionSchema, "tableName", table, "partitionDate", fx.jobPartitionDate,
                "objectKeys", List.of(fx.unregisteredKey)))));
        p.add(list(s, "GET /compaction/tables", at().query("limit", 500), "items.tableId", () -> fx.compactionTable));
        p.add(guarded(s, "POST /compaction/tables", () -> fx.app,
                app -> at().body(fx.compactionTableBody((Long) app, fx.unique("t")))));
        p.add(none(s, "POST /compaction/tables/{id}/drop", () -> at(fx.droppableTable)));
        p.add(guarded(s, "GET /compaction/tables/{id}/settings", () -> fx.compactionTable, AccessProbes::at));
        p.add(guarded(s, "PUT /compaction/tables/{id}/settings", () -> fx.compactionTable,
                id -> at(id).body(Map.of("mergeIntervalSeconds", 43200))));
        p.add(list(s, "GET /files", at().query("minBatchId", fx.queuedBatch).query("maxBatchId", fx.queuedBatch)
                .query("processId", fx.step), "batchId", () -> fx.queuedBatch));
        p.add(guarded(s, "POST /files", () -> fx.lifecycleStep, pid -> at().body(Map.of("subProcessId", pid,
                "serverId", AccessFixtures.SERVER, "path", "/landing/" + fx.unique("out"), "fileSize", 1))));
        p.add(none(s, "POST /internal/backfills/impact", () -> at().body(Map.of("rootProcessIds", List.of(),
                "rootRunIds", List.of(), "restatedBatchIds", List.of(), "cascade", true))));
        p.add(none(s, "POST /internal/backfills/reenqueue", () -> at().body(Map.of())));
        p.add(none(s, "POST /internal/claims", () -> at().body(Map.of())));
        p.add(guarded(s, "GET /lineage/batches/{targetBatchId}", () -> fx.targetBatch, AccessProbes::at));
        p.add(guarded(s, "GET /process-definitions/{id}", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /process-definitions/{id}/tree", () -> fx.parent, AccessProbes::at));
        p.add(list(s, "GET /queue", at().query("processId", fx.step), "items.sourceBatchId", () -> fx.queuedBatch));
    }

    private static void lineage(AccessFixtures fx, List<Probe> p) {
        String s = "lineage-service";
        p.add(none(s, "GET /audit", AccessProbes::at));
        p.add(none(s, "POST /internal/lineage/reach", () -> at().body(Map.of("columns",
                List.of(fx.targetTable + ".amount")))));
        p.add(guarded(s, "GET /lineage/batches/{batchId}", () -> fx.targetBatch, AccessProbes::at));
        p.add(graph(s, "GET /lineage/columns", () -> fx.targetTable,
                table -> at().query("table", table).query("column", "amount"), "edges.processId", () -> fx.step));
        p.add(guarded(s, "GET /lineage/processes/{processId}", () -> fx.parent, AccessProbes::at));
        p.add(graph(s, "GET /lineage/tables/{table}", () -> fx.targetTable, AccessProbes::at, "edges.processId",
                () -> fx.step));
        p.add(graph(s, "GET /lineage/tables/{table}/impact", () -> fx.sourceTable, AccessProbes::at, "processes",
                () -> fx.step));
        p.add(guarded(s, "GET /openlineage/runs/{instanceExecId}", () -> fx.run, AccessProbes::at));
        p.add(guarded(s, "GET /process-definitions/{id}", () -> fx.parent, AccessProbes::at));
        p.add(guarded(s, "GET /process-definitions/{id}/tree", () -> fx.parent, AccessProbes::at));
        p.add(list(s, "GET /queries", at().query("processId", fx.step), "items.id", () -> fx.query));
        p.add(guarded(s, "POST /queries", () -> fx.step, pid -> at().body(fx.queryBody((Long) pid))));
        p.add(guarded(s, "GET /queries/{id}", () -> fx.query, AccessProbes::at));
        p.add(none(s, "GET /tables", AccessProbes::at));
        p.add(none(s, "GET /tables/{table}", () -> at(fx.sourceTable)));
        p.add(none(s, "PUT /tables/{table}", () -> at(fx.lineageDb + ".schema_only")
                .body(Map.of("columns", List.of("a", "b")))));
    }

    private static void dashboard(AccessFixtures fx, List<Probe> p) {
        String s = "dashboard";
        p.add(none(s, "GET /", AccessProbes::at));
        p.add(list(s, "GET /api/snapshot", at(), "parents.processId", () -> fx.parent));
        p.add(list(s, "GET /api/stream", at(), "parents.processId", () -> fx.parent));
        p.add(guarded(s, "GET /api/panels/why/{pid}", () -> fx.standalone, AccessProbes::at));
        // parents without a policy, or that the viewer may not read, are left out of the answer: a list not searched
        p.add(list(s, "GET /api/panels/triggers", at().query("pid", fx.parent), null, null));
        p.add(list(s, "GET /api/panels/compaction", at(), "tables.table",
                () -> fx.compactionSchema + "." + fx.compactionTableName));
        p.add(list(s, "GET /api/panels/deadlines", at(), null, null));
        p.add(list(s, "GET /api/panels/backfills", at(), null, null));
        p.add(guarded(s, "GET /api/panels/lineage/processes/{pid}", () -> fx.parent, AccessProbes::at));
        p.add(graph(s, "GET /api/panels/lineage/tables/{table}", () -> fx.targetTable, AccessProbes::at, null, null));
    }

    private static void clock(String s, List<Probe> p) {
        p.add(none(s, "DELETE /admin/clock", AccessProbes::at));
        p.add(none(s, "GET /admin/clock", AccessProbes::at));
        // An offset of nothing: where the clock may be moved, this moves it nowhere.
        p.add(none(s, "PUT /admin/clock", () -> at().body(Map.of("offsetSeconds", 0))));
    }

    /** An operation on an object of X: {@code call} builds the request for a given object (real, or its twin). */
    private static Probe guarded(String service, String operation, Supplier<Object> object,
                                 Function<Object, Call> call) {
        return new Probe(service, operation, object, call, null);
    }

    /** An operation that guards no object of an application. */
    private static Probe none(String service, String operation, Supplier<Call> call) {
        return new Probe(service, operation, null, ignored -> call.get(), null);
    }

    /**
     * A filtered graph asked for by a name ({@code key}: a table): like a list, except that a name whose whole graph
     * the caller may not see is, for that caller, a name nothing is known about, so it may also answer exactly as the
     * same call for a name that does not exist ({@link #twinOf} the key).
     */
    private static Probe graph(String service, String operation, Supplier<Object> key, Function<Object, Call> call,
                               String path, Supplier<Object> id) {
        return new Probe(service, operation, key, call, path == null ? null : new Seen(path, id));
    }

    /** A list: {@code id} is the fixture's object, found at {@code path} of the answer (null: not searched). */
    private static Probe list(String service, String operation, Call call, String path, Supplier<Object> id) {
        return new Probe(service, operation, null, ignored -> call, path == null ? null : new Seen(path, id));
    }
}
