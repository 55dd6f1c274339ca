package io.batchyard.queue.compaction;

import static io.batchyard.queue.access.Visibility.visible;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.queue.access.Visibility;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL of the operator actions: a table's dropped mark, its merge jobs, and the audit trail. */
@ApplicationScoped
public class OperatorRepository extends SqlRepository {

    private static final String AUDITS_SELECT = """
            SELECT a.audit_id, a.actor, a.action, a.target, a.result, a.detail, a.at FROM compaction_audit a
            LEFT JOIN compaction_table t ON t.table_id = a.table_id""";

    /** Marks the table dropped, locking it; empty for no such table, else whether this call dropped it. */
    public Uni<Optional<Boolean>> markDropped(long tableId) {
        return value("""
                        WITH t AS (SELECT table_id, dropped_at FROM compaction_table WHERE table_id = :id FOR UPDATE),
                             d AS (UPDATE compaction_table c SET dropped_at = now() FROM t
                                   WHERE c.table_id = t.table_id AND t.dropped_at IS NULL RETURNING c.table_id)
                        SELECT EXISTS (SELECT 1 FROM d) FROM t""", Boolean.class, Params.of("id", tableId));
    }

    /** Pending and dead-lettered jobs of the table's partitions go; an ongoing one ends on its own. */
    public Uni<Integer> deleteIdleJobs(long tableId) {
        return update("""
                        DELETE FROM merge_job j USING compaction_partition p
                        WHERE j.partition_id = p.partition_id AND p.table_id = :id AND j.state IN ('PENDING', 'DEAD')""",
                Params.of("id", tableId));
    }

    public Uni<Boolean> dropped(long tableId) {
        return value("SELECT dropped_at IS NOT NULL FROM compaction_table WHERE table_id = :id", Boolean.class,
                Params.of("id", tableId)).map(d -> d.orElse(false));
    }

    /**
     * What a rebuild decides on, read with the partition locked (and its table held against a concurrent drop): its
     * table and the application that table belongs to as well.
     */
    public record RebuildCheck(boolean switched, boolean tableDropped, long currentVersion, Long rebuildTarget,
                               long tableId, long applicationId) {

        /** A rebuild's chain is not yet published: a new request changes nothing. */
        public boolean pending() {
            return rebuildTarget != null && currentVersion < rebuildTarget;
        }
    }

    /** Locks the partition for a rebuild; empty for no such partition. */
    public Uni<Optional<RebuildCheck>> lockForRebuild(long partitionId) {
        return first("""
                        SELECT p.switched, t.dropped_at IS NOT NULL AS table_dropped, p.current_manifest_version,
                          p.rebuild_target,
                          t.table_id, t.application_id
                        FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id
                        WHERE p.partition_id = :p FOR UPDATE OF p FOR SHARE OF t""",
                Params.of("p", partitionId),
                r -> new RebuildCheck(r.getBoolean("switched"), r.getBoolean("table_dropped"),
                        r.getLong("current_manifest_version"), r.getLongOrNull("rebuild_target"), r.getLong("table_id"),
                        r.getLong("application_id")));
    }

    /** The target of the action that did the work under this idempotency key, if one did. */
    public Uni<Optional<String>> keyedTarget(String action, String idempotencyKey) {
        return value("""
                        SELECT target FROM compaction_audit
                        WHERE action = :action AND idempotency_key = :key AND result = 'DONE'""", String.class,
                Params.of("action", action).and("key", idempotencyKey));
    }

    /** An audit row of an action on table {@code tableId}. */
    public Uni<Integer> audit(String actor, String action, String target, long tableId, String result, String detail,
                              String idempotencyKey) {
        return update("""
                        INSERT INTO compaction_audit (actor, action, target, table_id, result, detail, idempotency_key)
                        VALUES (:actor, :action, :target, :table, :result, :detail, CAST(:key AS text))""",
                Params.of("actor", actor).and("action", action).and("target", target).and("table", tableId)
                        .and("result", result).and("detail", detail).and("key", idempotencyKey));
    }

    public Uni<Integer> audit(String actor, String action, String target, long tableId, String result, String detail) {
        return audit(actor, action, target, tableId, result, detail, null);
    }

    /** The audit rows of actions on tables of applications the caller may see, newest first. */
    public Uni<List<AuditEntry>> audits(Visibility visibility, int limit, int offset) {
        return list(AUDITS_SELECT + " WHERE " + visible("t.application_id")
                        + " ORDER BY a.at DESC, a.audit_id DESC" + Paging.CLAUSE,
                visibility.params().and(new Paging(limit, offset).params()),
                r -> new AuditEntry(r.getLong("audit_id"), r.getString("actor"), r.getString("action"),
                        r.getString("target"), r.getString("result"), r.getString("detail"), r.getTime("at")));
    }

    public Uni<Long> auditCount(Visibility visibility) {
        return single("SELECT count(*) FROM compaction_audit a LEFT JOIN compaction_table t ON t.table_id = a.table_id"
                + " WHERE " + visible("t.application_id"), Long.class, visibility.params());
    }
}
