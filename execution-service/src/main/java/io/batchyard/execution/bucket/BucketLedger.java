package io.batchyard.execution.bucket;

import io.batchyard.execution.bucket.BucketStatus.State;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** bucket_status: which buckets of a process wait, run, completed or failed. */
@ApplicationScoped
public class BucketLedger {

    /** Adds an INIT row unless the bucket is known; a COMPLETE bucket is never reset by this. */
    public boolean ensure(Handle tx, long processId, String bucket) {
        return tx.createUpdate("""
                INSERT INTO bucket_status (process_id, bucket, status) VALUES (:p, :b, 'INIT')
                ON CONFLICT (process_id, bucket) DO NOTHING""")
                .bind("p", processId).bind("b", bucket.trim()).execute() > 0;
    }

    public List<String> eligible(Handle h, long processId, boolean includeFailed) {
        return h.createQuery("""
                SELECT bucket FROM bucket_status WHERE process_id = :p AND (status = 'INIT' OR (:failed AND status = 'FAILED'))
                ORDER BY bucket""").bind("p", processId).bind("failed", includeFailed).mapTo(String.class).list();
    }

    public Optional<BucketStatus> find(Handle h, long processId, String bucket) {
        return h.createQuery("SELECT * FROM bucket_status WHERE process_id = :p AND bucket = :b")
                .bind("p", processId).bind("b", bucket).map(BucketLedger::row).findOne();
    }

    public List<BucketStatus> list(Handle h, long processId, State status, int limit, int offset) {
        return h.createQuery("""
                SELECT * FROM bucket_status WHERE process_id = :p AND (CAST(:s AS TEXT) IS NULL OR status = :s)
                ORDER BY bucket DESC LIMIT :limit OFFSET :offset""")
                .bind("p", processId).bind("s", status == null ? null : status.name()).bind("limit", limit)
                .bind("offset", offset).map(BucketLedger::row).list();
    }

    public long count(Handle h, long processId, State status) {
        return h.createQuery("SELECT count(*) FROM bucket_status WHERE process_id = :p AND (CAST(:s AS TEXT) IS NULL OR status = :s)")
                .bind("p", processId).bind("s", status == null ? null : status.name()).mapTo(Long.class).one();
    }

    /**
     * Moves the given buckets from {@code from} to {@code to}; returns how many moved. Callers compare with the number
     * they asked for: the WHERE clause is the guard, so a bucket someone else moved first is simply not counted.
     */
    public int move(Handle tx, long processId, List<String> buckets, State from, State to, Long instanceExecId,
                    String message) {
        if (!from.canBecome(to)) {
            throw new IllegalStateException("bucket cannot go from " + from + " to " + to);
        }
        return tx.createUpdate("""
                UPDATE bucket_status SET status = :to, updated_at = now(), message = :msg,
                    instance_exec_id = COALESCE(:ie, instance_exec_id),
                    attempts = attempts + CASE WHEN :to = 'RUNNING' THEN 1 ELSE 0 END
                WHERE process_id = :p AND bucket = ANY(:b) AND status = :from""")
                .bind("p", processId).bindArray("b", String.class, buckets).bind("from", from.name()).bind("to", to.name())
                .bind("ie", instanceExecId).bind("msg", message).execute();
    }

    /** Names the run that works on these RUNNING buckets. */
    public void attachRun(Handle tx, long processId, List<String> buckets, long instanceExecId) {
        tx.createUpdate("""
                UPDATE bucket_status SET instance_exec_id = :ie, updated_at = now()
                WHERE process_id = :p AND bucket = ANY(:b) AND status = 'RUNNING'""")
                .bind("p", processId).bindArray("b", String.class, buckets).bind("ie", instanceExecId).execute();
    }

    /** COMPLETE of {@code bucket} for {@code processId}: a same-bucket parent dependency. */
    public boolean complete(Handle h, long processId, String bucket) {
        return find(h, processId, bucket).map(b -> b.status() == State.COMPLETE).orElse(false);
    }

    private static BucketStatus row(ResultSet rs, StatementContext ctx) throws SQLException {
        return new BucketStatus(rs.getLong("process_id"), rs.getString("bucket"), State.valueOf(rs.getString("status")),
                (Long) rs.getObject("instance_exec_id"), rs.getInt("attempts"), rs.getString("message"),
                rs.getObject("updated_at", OffsetDateTime.class));
    }
}
