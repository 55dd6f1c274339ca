package io.batchyard.queue.compaction.merge;

import static io.batchyard.queue.compaction.merge.MergeJobState.DEAD;
import static io.batchyard.queue.compaction.merge.MergeJobState.ONGOING;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The merge-job queue in PostgreSQL (spec A.6). Every state change is one conditional statement, never a read followed
 * by an unconditional update: the claim locks its row with {@code FOR UPDATE SKIP LOCKED}, and every write of a
 * claimed job is fenced by (job id, lease owner, attempt), so a worker presumed dead cannot change a job it lost.
 */
public final class MergeJobQueue {

    private final Jdbi jdbi;

    public MergeJobQueue(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /**
     * Arrival of a small object: a pending job due in {@code delay}, unless the partition already has one (its earlier
     * schedule stays: later arrivals never postpone a merge) or a dead job parks the partition.
     *
     * @return true when a new pending job was created
     */
    public boolean enqueue(Handle tx, long partitionId, Duration delay) {
        return tx.createUpdate("""
                        INSERT INTO merge_job (partition_id, state, schedule_time)
                        SELECT :p, 'PENDING', now() + make_interval(secs => :delay)
                        WHERE NOT EXISTS (SELECT 1 FROM merge_job WHERE partition_id = :p AND state = 'DEAD')
                        ON CONFLICT (partition_id) WHERE state = 'PENDING' DO NOTHING""")
                .bind("p", partitionId).bind("delay", (double) delay.toSeconds()).execute() == 1;
    }

    /**
     * Claims the due pending job with the earliest schedule, exclusively: concurrent claimers skip a row another one
     * has locked, and a partition that already has an ongoing job is not claimable, so one partition is merged by one
     * worker at a time.
     */
    public Optional<MergeJobClaim> claim(String owner) {
        return jdbi.inTransaction(tx -> tx.createQuery("""
                        WITH candidate AS (
                          SELECT j.job_id FROM merge_job j
                          WHERE j.state = 'PENDING' AND j.schedule_time <= now()
                            AND NOT EXISTS (SELECT 1 FROM merge_job o WHERE o.partition_id = j.partition_id AND o.state = 'ONGOING')
                          ORDER BY j.schedule_time, j.job_id
                          LIMIT 1
                          FOR UPDATE SKIP LOCKED)
                        UPDATE merge_job j SET state = 'ONGOING', lease_owner = :owner, claimed_at = now(),
                               heartbeat_at = now(), attempts = j.attempts + 1
                        FROM candidate WHERE j.job_id = candidate.job_id AND j.state = 'PENDING'
                        RETURNING j.job_id, j.partition_id, j.attempts, j.schedule_time""")
                .bind("owner", owner)
                .map((rs, ctx) -> new MergeJobClaim(rs.getLong("job_id"), rs.getLong("partition_id"), owner,
                        rs.getInt("attempts"), rs.getObject("schedule_time", OffsetDateTime.class)))
                .findOne());
    }

    /** Refreshes the lease; false when it was lost (the job was recovered by another worker). */
    public boolean heartbeat(MergeJobClaim claim) {
        return jdbi.withHandle(h -> h.createUpdate("""
                        UPDATE merge_job SET heartbeat_at = now()
                        WHERE job_id = :id AND state = 'ONGOING' AND lease_owner = :owner AND attempts = :attempt""")
                .bindMethods(fence(claim)).execute() == 1);
    }

    /** Locks the claimed job inside {@code tx}; false when the lease is no longer this worker's. */
    public boolean holds(Handle tx, MergeJobClaim claim) {
        return tx.createQuery("""
                        SELECT 1 FROM merge_job
                        WHERE job_id = :id AND state = 'ONGOING' AND lease_owner = :owner AND attempts = :attempt
                        FOR UPDATE""")
                .bindMethods(fence(claim)).mapTo(Integer.class).findOne().isPresent();
    }

    /** FINISHED: nothing left to merge. Call after {@link #holds}. */
    public void finish(Handle tx, MergeJobClaim claim) {
        tx.createUpdate("DELETE FROM merge_job WHERE job_id = :id").bind("id", claim.jobId()).execute();
    }

    /**
     * CONTINUING (carry-over): a follow-up due at once (the claimed job's own, past, schedule), merged into a pending
     * job that arrivals created meanwhile. The run succeeded, so the follow-up starts with no failed attempts.
     */
    public void continueLater(Handle tx, MergeJobClaim claim) {
        ONGOING.next(MergeJobState.Event.CONTINUE);
        requeue(tx, claim.jobId(), claim.partitionId(), claim.scheduleTime(), 0, null);
    }

    /** A run failed with an exception: retry after {@code backoff}, or dead-letter at {@code maxAttempts}. */
    public MergeJobState fail(MergeJobClaim claim, String error, Duration backoff, int maxAttempts) {
        return jdbi.inTransaction(tx -> {
            if (!holds(tx, claim)) {
                return ONGOING; // someone else owns it now; nothing of ours to undo
            }
            OffsetDateTime retryAt = tx.createQuery("SELECT now() + make_interval(secs => :s)")
                    .bind("s", (double) backoff.toMillis() / 1000).mapTo(OffsetDateTime.class).one();
            return release(tx, claim.jobId(), claim.partitionId(), retryAt, claim.attempt(), maxAttempts, error);
        });
    }

    /**
     * Dead-worker recovery, run before each claim: ongoing jobs whose heartbeat is older than {@code timeout} go back
     * to pending with their original (past, so due) schedule, or to DEAD when their attempts are used up. Rows locked
     * by another recoverer are skipped, so two workers never recover the same job.
     *
     * @return jobs recovered
     */
    public int recoverExpired(Duration timeout, int limit, int maxAttempts) {
        return jdbi.inTransaction(tx -> {
            record Expired(long jobId, long partitionId, OffsetDateTime scheduleTime, int attempts) {
            }
            List<Expired> expired = tx.createQuery("""
                            SELECT job_id, partition_id, schedule_time, attempts FROM merge_job
                            WHERE state = 'ONGOING' AND heartbeat_at < now() - make_interval(secs => :timeout)
                            ORDER BY heartbeat_at LIMIT :limit
                            FOR UPDATE SKIP LOCKED""")
                    .bind("timeout", timeout.toMillis() / 1000.0).bind("limit", limit)
                    .map((rs, ctx) -> new Expired(rs.getLong(1), rs.getLong(2), rs.getObject(3, OffsetDateTime.class),
                            rs.getInt(4)))
                    .list();
            for (Expired e : expired) {
                release(tx, e.jobId(), e.partitionId(), e.scheduleTime(), e.attempts(), maxAttempts,
                        "lease expired (no heartbeat for " + timeout + ")");
            }
            return expired.size();
        });
    }

    /** DEAD -> PENDING, due at once, with a fresh attempt budget. False when the job is not dead. */
    public boolean revive(long jobId) {
        return jdbi.inTransaction(tx -> {
            Optional<Long> partition = tx.createQuery(
                            "SELECT partition_id FROM merge_job WHERE job_id = :id AND state = 'DEAD' FOR UPDATE")
                    .bind("id", jobId).mapTo(Long.class).findOne();
            if (partition.isEmpty()) {
                return false;
            }
            DEAD.next(MergeJobState.Event.REVIVE);
            OffsetDateTime now = tx.createQuery("SELECT now()").mapTo(OffsetDateTime.class).one();
            requeue(tx, jobId, partition.get(), now, 0, null);
            return true;
        });
    }

    public Optional<MergeJob> find(Handle h, long jobId) {
        return h.createQuery("SELECT * FROM merge_job WHERE job_id = :id").bind("id", jobId).map(MergeJobQueue::row).findOne();
    }

    public List<MergeJob> list(Handle h, MergeJobState state, Long partitionId, int limit, int offset) {
        return h.createQuery("""
                        SELECT * FROM merge_job
                        WHERE (CAST(:state AS TEXT) IS NULL OR state = :state)
                          AND (CAST(:p AS BIGINT) IS NULL OR partition_id = :p)
                        ORDER BY job_id LIMIT :limit OFFSET :offset""")
                .bind("state", state == null ? null : state.name()).bind("p", partitionId)
                .bind("limit", limit).bind("offset", offset).map(MergeJobQueue::row).list();
    }

    public long count(Handle h, MergeJobState state, Long partitionId) {
        return h.createQuery("""
                        SELECT count(*) FROM merge_job
                        WHERE (CAST(:state AS TEXT) IS NULL OR state = :state) AND (CAST(:p AS BIGINT) IS NULL OR partition_id = :p)""")
                .bind("state", state == null ? null : state.name()).bind("p", partitionId).mapTo(Long.class).one();
    }

    private MergeJobState release(Handle tx, long jobId, long partitionId, OffsetDateTime retryAt, int attempts,
                                  int maxAttempts, String error) {
        MergeJobState next = ONGOING.next(MergeJobState.afterFailure(attempts, maxAttempts));
        if (next == DEAD) {
            // The dead job stands for all of the partition's waiting work: a pending job created by arrivals during
            // the failing run is absorbed, and enqueue() creates none while the partition is parked.
            tx.createUpdate("DELETE FROM merge_job WHERE partition_id = :p AND state = 'PENDING'")
                    .bind("p", partitionId).execute();
            tx.createUpdate("""
                            UPDATE merge_job SET state = 'DEAD', lease_owner = NULL, heartbeat_at = NULL, last_error = :error
                            WHERE job_id = :id""")
                    .bind("id", jobId).bind("error", truncate(error)).execute();
        } else {
            requeue(tx, jobId, partitionId, retryAt, attempts, error);
        }
        return next;
    }

    /**
     * Replaces a job by a pending one of its partition: inserted, or merged into the pending job that already exists
     * (earliest schedule, highest attempt count win), then the old row goes. One transaction, so a crash leaves either
     * the old row or the new one, never both or none.
     */
    private static void requeue(Handle tx, long jobId, long partitionId, OffsetDateTime scheduleTime, int attempts,
                                String error) {
        tx.createUpdate("""
                        INSERT INTO merge_job (partition_id, state, schedule_time, attempts, last_error)
                        VALUES (:p, 'PENDING', :schedule, :attempts, :error)
                        ON CONFLICT (partition_id) WHERE state = 'PENDING' DO UPDATE
                          SET schedule_time = LEAST(merge_job.schedule_time, EXCLUDED.schedule_time),
                              attempts = GREATEST(merge_job.attempts, EXCLUDED.attempts),
                              last_error = COALESCE(EXCLUDED.last_error, merge_job.last_error)""")
                .bind("p", partitionId).bind("schedule", scheduleTime).bind("attempts", attempts)
                .bind("error", truncate(error)).execute();
        tx.createUpdate("DELETE FROM merge_job WHERE job_id = :id AND state <> 'PENDING'").bind("id", jobId).execute();
    }

    private static String truncate(String error) {
        return error == null || error.length() <= 500 ? error : error.substring(0, 500);
    }

    private static Fence fence(MergeJobClaim claim) {
        return new Fence(claim.jobId(), claim.owner(), claim.attempt());
    }

    /** The columns that fence a claimed job's writes. */
    public record Fence(long id, String owner, int attempt) {
    }

    private static MergeJob row(java.sql.ResultSet rs, org.jdbi.v3.core.statement.StatementContext ctx)
            throws java.sql.SQLException {
        return new MergeJob(rs.getLong("job_id"), rs.getLong("partition_id"), MergeJobState.valueOf(rs.getString("state")),
                rs.getObject("schedule_time", OffsetDateTime.class), rs.getInt("attempts"), rs.getString("lease_owner"),
                rs.getObject("heartbeat_at", OffsetDateTime.class), rs.getString("last_error"));
    }
}
