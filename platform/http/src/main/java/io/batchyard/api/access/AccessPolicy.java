package io.batchyard.api.access;

import static io.batchyard.api.Roles.ADMIN;
import static io.batchyard.api.Roles.DEVELOPER;
import static io.batchyard.api.Roles.OPERATOR;
import static io.batchyard.api.Roles.SERVICE;
import static io.batchyard.api.Roles.VIEWER;
import static io.batchyard.api.access.AccessPolicy.Need.EXECUTE;
import static io.batchyard.api.access.AccessPolicy.Need.FILTERED;
import static io.batchyard.api.access.AccessPolicy.Need.NONE;
import static io.batchyard.api.access.AccessPolicy.Need.OWNER;
import static io.batchyard.api.access.AccessPolicy.Need.READ;
import static io.batchyard.api.access.AccessPolicy.Need.WRITE;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who may do what, for every HTTP operation of every service: the lowest role that may call it, and what the caller
 * must hold on the application the operation's object belongs to. This is the one table; the services enforce the
 * role with {@code @RolesAllowed} and the application permission through {@link ApplicationGuard}, and the tests
 * hold both to it (each service's role matrix, and the end-to-end matrix that walks every live operation as every
 * kind of caller). An operation without a row here is a failure of those tests.
 */
public final class AccessPolicy {

    /** What an operation needs on the application its object belongs to. */
    public enum Need {
        /** Nothing: the object belongs to no application (master data, servers, the audit trail, the clock). */
        NONE,
        /**
         * A list or graph: it shows only what objects of applications the caller may read contribute. A graph asked for
         * by name (a table's lineage) of which the caller may see nothing answers as a name nothing is known about.
         */
        FILTERED,
        /** Read on the object's application; without it the object answers as if it did not exist. */
        READ,
        /** Write on the object's application (and read, else it does not exist for the caller). */
        WRITE,
        /** Execute on the object's application (and read, else it does not exist for the caller). */
        EXECUTE,
        /** The application's owner or an administrator (its permission settings). */
        OWNER
    }

    /** One operation, as {@code "METHOD /path"} with the path template of the OpenAPI document. */
    public record Rule(String operation, String role, Need need) {
    }

    /** The services, by their {@code quarkus.application.name}. */
    private static final Map<String, List<Rule>> BY_SERVICE = new LinkedHashMap<>();

    static {
        BY_SERVICE.put("registry-service", registry());
        BY_SERVICE.put("execution-service", execution());
        BY_SERVICE.put("queue-service", queue());
        BY_SERVICE.put("lineage-service", lineage());
        BY_SERVICE.put("dashboard", dashboard());
    }

    private AccessPolicy() {
    }

    /** The services this table covers. */
    public static List<String> services() {
        return List.copyOf(BY_SERVICE.keySet());
    }

    /** Every rule of one service, in the table's order. */
    public static List<Rule> of(String service) {
        List<Rule> rules = BY_SERVICE.get(service);
        if (rules == null) {
            throw new IllegalArgumentException("no access policy for service " + service);
        }
        return rules;
    }

    /** The rule for one operation of one service, if the table has it. */
    public static Optional<Rule> rule(String service, String operation) {
        return of(service).stream().filter(r -> r.operation().equals(operation)).findFirst();
    }

    private static Rule rule(String operation, String role, Need need) {
        return new Rule(operation, role, need);
    }

    /** registry-service. */
    private static List<Rule> registry() {
        return List.of(
                rule("GET /applications", VIEWER, FILTERED),
                rule("POST /applications", DEVELOPER, NONE),
                rule("GET /applications/{id}", VIEWER, READ),
                rule("PUT /applications/{id}", DEVELOPER, WRITE),
                rule("DELETE /applications/{id}", ADMIN, NONE),
                rule("GET /applications/{id}/permissions", VIEWER, OWNER),
                rule("PUT /applications/{id}/permissions", DEVELOPER, OWNER),
                rule("GET /audit", ADMIN, NONE),
                rule("GET /batch-states", VIEWER, NONE),
                rule("GET /deploy-statuses", VIEWER, NONE),
                rule("GET /exec-states", VIEWER, NONE),
                rule("GET /hive-tables", VIEWER, FILTERED),
                rule("POST /hive-tables", DEVELOPER, WRITE),
                rule("GET /hive-tables/{id}", VIEWER, READ),
                rule("PUT /hive-tables/{id}", DEVELOPER, WRITE),
                rule("DELETE /hive-tables/{id}", DEVELOPER, WRITE),
                rule("GET /lineage-node-types", VIEWER, NONE),
                rule("GET /lineage-query-types", VIEWER, NONE),
                rule("GET /permission-types", VIEWER, NONE),
                rule("POST /pipelines/apply", DEVELOPER, WRITE),
                rule("GET /process-templates", VIEWER, FILTERED),
                rule("POST /process-templates", DEVELOPER, WRITE),
                rule("GET /process-templates/{id}", VIEWER, READ),
                rule("PATCH /process-templates/{id}", DEVELOPER, WRITE),
                rule("DELETE /process-templates/{id}", DEVELOPER, WRITE),
                rule("POST /process-templates/{id}/instantiate", DEVELOPER, WRITE),
                rule("GET /process-templates/{id}/properties", VIEWER, READ),
                rule("PUT /process-templates/{id}/properties/{key}", DEVELOPER, WRITE),
                rule("DELETE /process-templates/{id}/properties/{key}", DEVELOPER, WRITE),
                rule("GET /process-templates/{id}/tree", VIEWER, READ),
                rule("GET /process-types", VIEWER, NONE),
                rule("GET /processes", VIEWER, FILTERED),
                rule("POST /processes", DEVELOPER, WRITE),
                rule("GET /processes/{id}", VIEWER, READ),
                rule("PATCH /processes/{id}", DEVELOPER, WRITE),
                rule("DELETE /processes/{id}", DEVELOPER, WRITE),
                rule("GET /processes/{id}/etl-driver", VIEWER, READ),
                rule("PUT /processes/{id}/etl-driver", DEVELOPER, WRITE),
                rule("DELETE /processes/{id}/etl-driver", DEVELOPER, WRITE),
                rule("GET /processes/{id}/deadlines", VIEWER, READ),
                rule("PUT /processes/{id}/deadlines", DEVELOPER, WRITE),
                rule("DELETE /processes/{id}/deadlines", DEVELOPER, WRITE),
                rule("GET /processes/{id}/properties", VIEWER, READ),
                rule("GET /processes/{id}/properties/{key}", VIEWER, READ),
                rule("PUT /processes/{id}/properties/{key}", DEVELOPER, WRITE),
                rule("DELETE /processes/{id}/properties/{key}", DEVELOPER, WRITE),
                rule("GET /processes/{id}/tree", VIEWER, READ),
                rule("GET /processes/{id}/workflow", VIEWER, READ),
                rule("GET /servers", ADMIN, NONE),
                rule("POST /servers", ADMIN, NONE),
                rule("POST /servers/re-encrypt", ADMIN, NONE),
                rule("GET /servers/{id}", ADMIN, NONE),
                rule("PUT /servers/{id}", ADMIN, NONE),
                rule("DELETE /servers/{id}", ADMIN, NONE),
                rule("GET /workflow-types", VIEWER, NONE));
    }

    /** execution-service. */
    private static List<Rule> execution() {
        return List.of(
                rule("DELETE /admin/clock", ADMIN, NONE),
                rule("GET /admin/clock", ADMIN, NONE),
                rule("PUT /admin/clock", ADMIN, NONE),
                rule("GET /audit", ADMIN, NONE),
                rule("GET /backfills", VIEWER, FILTERED),
                rule("POST /backfills", OPERATOR, EXECUTE),
                rule("GET /backfills/plans/{planId}", VIEWER, READ),
                rule("POST /backfills/preview", VIEWER, READ),
                rule("GET /backfills/{backfillId}", VIEWER, READ),
                rule("POST /backfills/{backfillId}/cancel", OPERATOR, EXECUTE),
                rule("POST /backfills/{backfillId}/pause", OPERATOR, EXECUTE),
                rule("POST /backfills/{backfillId}/resume", OPERATOR, EXECUTE),
                rule("GET /deadlines", VIEWER, FILTERED),
                rule("GET /deadlines/{id}", VIEWER, READ),
                rule("POST /deadlines/{id}/waive", OPERATOR, EXECUTE),
                rule("GET /deployments/{id}", VIEWER, READ),
                rule("POST /deployments/{id}/halt", OPERATOR, EXECUTE),
                rule("POST /deployments/{id}/init", OPERATOR, EXECUTE),
                rule("POST /deployments/{id}/term", OPERATOR, EXECUTE),
                rule("POST /jobs/{pid}/halt", OPERATOR, EXECUTE),
                rule("POST /jobs/{pid}/init", OPERATOR, EXECUTE),
                rule("POST /jobs/{pid}/term", OPERATOR, EXECUTE),
                rule("GET /process-definitions/{id}", VIEWER, READ),
                rule("GET /process-definitions/{id}/tree", VIEWER, READ),
                rule("GET /processes/{pid}/deployments", VIEWER, READ),
                rule("POST /processes/{pid}/deployments", OPERATOR, EXECUTE),
                rule("GET /processes/{pid}/deployments/latest", VIEWER, READ),
                rule("GET /processes/{pid}/log", VIEWER, READ),
                rule("POST /processes/{pid}/log", OPERATOR, EXECUTE),
                rule("GET /processes/{pid}/log/last", VIEWER, READ),
                rule("GET /processes/{pid}/log/last-instance", VIEWER, READ),
                rule("GET /processes/{pid}/log/{logId}", VIEWER, READ),
                rule("GET /processes/{pid}/trigger", VIEWER, READ),
                rule("PUT /processes/{pid}/trigger", OPERATOR, EXECUTE),
                rule("POST /processes/{pid}/trigger/pause", OPERATOR, EXECUTE),
                rule("POST /processes/{pid}/trigger/resume", OPERATOR, EXECUTE),
                rule("GET /processes/{pid}/trigger/resume-preview", VIEWER, READ),
                rule("GET /processes/{pid}/trigger/runs", VIEWER, READ),
                rule("GET /runner/bucket-keys", VIEWER, NONE),
                rule("PUT /runner/bucket-keys/{key}", DEVELOPER, NONE),
                rule("GET /runner/processes/{pid}", VIEWER, READ),
                rule("PUT /runner/processes/{pid}", OPERATOR, EXECUTE),
                rule("DELETE /runner/processes/{pid}", OPERATOR, EXECUTE),
                rule("POST /runner/processes/{pid}/backfill", OPERATOR, EXECUTE),
                rule("GET /runner/processes/{pid}/buckets", VIEWER, READ),
                rule("POST /runner/processes/{pid}/buckets", OPERATOR, EXECUTE),
                rule("POST /runner/processes/{pid}/buckets/{bucket}/retry", OPERATOR, EXECUTE),
                rule("POST /runner/processes/{pid}/launch", OPERATOR, EXECUTE),
                rule("GET /runner/processes/{pid}/steps/{sid}", VIEWER, READ),
                rule("PUT /runner/processes/{pid}/steps/{sid}", OPERATOR, EXECUTE),
                rule("GET /runs", VIEWER, FILTERED),
                rule("GET /runs/{id}", VIEWER, READ),
                rule("GET /runs/{id}/history", VIEWER, READ),
                rule("GET /runs/{ie}/log", VIEWER, READ),
                rule("POST /steps/{sids}/halt", OPERATOR, EXECUTE),
                rule("POST /steps/{sid}/init", OPERATOR, EXECUTE),
                rule("POST /steps/{sid}/term", OPERATOR, EXECUTE),
                rule("GET /why/{pid}", VIEWER, READ));
    }

    /** queue-service. */
    private static List<Rule> queue() {
        return List.of(
                rule("DELETE /admin/clock", ADMIN, NONE),
                rule("GET /admin/clock", ADMIN, NONE),
                rule("PUT /admin/clock", ADMIN, NONE),
                rule("GET /archive", VIEWER, FILTERED),
                rule("GET /audit", ADMIN, NONE),
                rule("POST /batches", OPERATOR, EXECUTE),
                rule("GET /batches/{batchId}", VIEWER, READ),
                rule("POST /batches/{batchId}/enqueue", OPERATOR, EXECUTE),
                rule("GET /compaction/audit", OPERATOR, FILTERED),
                rule("POST /compaction/catalog/sync", OPERATOR, NONE),
                rule("GET /compaction/jobs", VIEWER, FILTERED),
                rule("POST /compaction/jobs/{id}/retry", OPERATOR, EXECUTE),
                rule("POST /compaction/objects", OPERATOR, EXECUTE),
                rule("GET /compaction/partitions", VIEWER, FILTERED),
                rule("GET /compaction/partitions/{id}", VIEWER, READ),
                rule("POST /compaction/partitions/{id}/close", OPERATOR, EXECUTE),
                rule("POST /compaction/partitions/{id}/gc", OPERATOR, EXECUTE),
                rule("POST /compaction/partitions/{id}/merge", OPERATOR, EXECUTE),
                rule("GET /compaction/partitions/{id}/manifest", VIEWER, READ),
                rule("GET /compaction/partitions/{id}/objects", VIEWER, READ),
                rule("GET /compaction/partitions/{id}/quarantine", VIEWER, READ),
                rule("POST /compaction/partitions/{id}/quarantine/drop", OPERATOR, EXECUTE),
                rule("POST /compaction/partitions/{id}/quarantine/release", OPERATOR, EXECUTE),
                rule("POST /compaction/replay", OPERATOR, EXECUTE),
                rule("GET /compaction/partitions/{id}/ranges", VIEWER, READ),
                rule("GET /compaction/partitions/{id}/read-location", VIEWER, READ),
                rule("POST /compaction/partitions/{id}/rebuild", OPERATOR, EXECUTE),
                rule("GET /compaction/tables", VIEWER, FILTERED),
                rule("POST /compaction/tables", DEVELOPER, WRITE),
                rule("POST /compaction/tables/{id}/drop", ADMIN, NONE),
                rule("GET /compaction/tables/{id}/settings", VIEWER, READ),
                rule("PUT /compaction/tables/{id}/settings", DEVELOPER, WRITE),
                rule("GET /files", VIEWER, FILTERED),
                rule("POST /files", OPERATOR, EXECUTE),
                rule("POST /internal/backfills/impact", SERVICE, NONE),
                rule("POST /internal/backfills/reenqueue", SERVICE, NONE),
                rule("POST /internal/claims", SERVICE, NONE),
                rule("GET /lineage/batches/{targetBatchId}", VIEWER, READ),
                rule("GET /process-definitions/{id}", VIEWER, READ),
                rule("GET /process-definitions/{id}/tree", VIEWER, READ),
                rule("GET /queue", VIEWER, FILTERED));
    }

    /** lineage-service. */
    private static List<Rule> lineage() {
        return List.of(
                rule("GET /audit", ADMIN, NONE),
                rule("POST /internal/lineage/reach", SERVICE, NONE),
                rule("GET /lineage/batches/{batchId}", VIEWER, READ),
                rule("GET /lineage/columns", VIEWER, FILTERED),
                rule("GET /lineage/processes/{processId}", VIEWER, READ),
                rule("GET /lineage/tables/{table}", VIEWER, FILTERED),
                rule("GET /lineage/tables/{table}/impact", VIEWER, FILTERED),
                rule("GET /openlineage/runs/{instanceExecId}", VIEWER, READ),
                rule("GET /process-definitions/{id}", VIEWER, READ),
                rule("GET /process-definitions/{id}/tree", VIEWER, READ),
                rule("GET /queries", VIEWER, FILTERED),
                rule("POST /queries", DEVELOPER, WRITE),
                rule("GET /queries/{id}", VIEWER, READ),
                rule("GET /tables", VIEWER, NONE),
                rule("GET /tables/{table}", VIEWER, NONE),
                rule("PUT /tables/{table}", DEVELOPER, NONE));
    }

    /** dashboard. */
    private static List<Rule> dashboard() {
        return List.of(
                rule("GET /", VIEWER, NONE),
                rule("GET /api/snapshot", VIEWER, FILTERED),
                rule("GET /api/stream", VIEWER, FILTERED),
                rule("GET /api/panels/why/{pid}", VIEWER, READ),
                rule("GET /api/panels/triggers", VIEWER, FILTERED),
                rule("GET /api/panels/compaction", VIEWER, FILTERED),
                rule("GET /api/panels/deadlines", VIEWER, FILTERED),
                rule("GET /api/panels/backfills", VIEWER, FILTERED),
                rule("GET /api/panels/lineage/processes/{pid}", VIEWER, READ),
                rule("GET /api/panels/lineage/tables/{table}", VIEWER, FILTERED));
    }
}
