package io.batchyard.queue.compaction.merge;

import static io.batchyard.queue.access.Visibility.visible;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.queue.access.Visibility;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SQL over the merge-job queue. Every state change is one conditional statement, never a read followed by an
 * unconditional update: the claim locks its row with {@code FOR UPDATE SKIP LOCKED}, and every write of a claimed job
 * is fenced by (job id, lease owner, attempt), so a worker presumed dead cannot change a job it lost. Every method
 * joins the caller's session.
 */
@ApplicationScoped
public class MergeJobRepository extends SqlRepository {

    private static final String COLUMNS = """
            job_id, partition_id, state, schedule_time, attempts, lease_owner, heartbeat_at, last_error""";
    /** The application of a job's table, for a row of {@code merge_job}. */
    private static final String APPLICATION = """
            (SELECT t.application_id FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id
              WHERE p.partition_id = merge_job.partition_id)""";
    private static final String FENCE = "job_id = :id AND state = 'ONGOING' AND lease_owner = :owner AND attempts = :attempt";

    /** An ongoing job whose lease expired. */
    public record Expired(long jobId, long partitionId, OffsetDateTime scheduleTime, int attempts) {
    }

    /**
     * Arrival of a small object: a pending job due in {@code delay}, unless the partition already has one (its earlier
     * schedule stays: later arrivals never postpone a merge) or a dead job parks the partition.
     *
     * @return true when a new pending job was created
     */
    public Uni<Boolean> enqueue(long partitionId, OffsetDateTime due) {
        return update("""
                        INSERT INTO merge_job (partition_id, state, schedule_time)
                        SELECT :p, 'PENDING', CAST(:due AS timestamptz)
                        WHERE NOT EXISTS (SELECT 1 FROM merge_job WHERE partition_id = :p AND state = 'DEAD')
                          -- a dropped table merges nothing more (OperatorService.dropTable)
                          AND NOT EXISTS (SELECT 1 FROM compaction_partition p JOIN compaction_table t USING (table_id)
                                          WHERE p.partition_id = :p AND t.dropped_at IS NOT NULL)
                        ON CONFLICT (partition_id) WHERE state = 'PENDING' DO NOTHING""",
                Params.of("p", partitionId).and("due", due))
                .map(inserted -> inserted == 1);
    }

    /** The partition's jobs' states, locked: a claim skips them until the caller's transaction ends. */
    public Uni<List<String>> lockStates(long partitionId) {
        return values("SELECT state FROM merge_job WHERE partition_id = :p FOR UPDATE", String.class,
                Params.of("p", partitionId));
    }

    /** Makes the partition's pending job due at {@code now} at the latest. */
    public Uni<Integer> dueBy(long partitionId, OffsetDateTime now) {
        return update("""
                        UPDATE merge_job SET schedule_time = LEAST(schedule_time, CAST(:now AS timestamptz))
                        WHERE partition_id = :p AND state = 'PENDING'""",
                Params.of("p", partitionId).and("now", now));
    }

    /** The partition's pending job becomes due at {@code now} if it was due later; false when none waited. */
    public Uni<Boolean> expedite(long partitionId, OffsetDateTime now) {
        return update("""
                        UPDATE merge_job SET schedule_time = CAST(:now AS timestamptz)
                        WHERE partition_id = :p AND state = 'PENDING' AND schedule_time > CAST(:now AS timestamptz)""",
                Params.of("p", partitionId).and("now", now))
                .map(updated -> updated == 1);
    }

    /**
     * Claims the due pending job with the earliest schedule, exclusively: concurrent claimers skip a row another one
     * has locked, and a partition that already has an ongoing job is not claimable, so one partition is merged by one
     * worker at a time. {@code now} is the service clock's: schedules, claims and heartbeats are all on that clock,
     * so a moved clock moves due times and lease expiry together.
     */
    public Uni<Optional<MergeJobClaim>> claim(String owner, OffsetDateTime now) {
        return first("""
                        WITH candidate AS (
                          SELECT j.job_id FROM merge_job j
                          WHERE j.state = 'PENDING' AND j.schedule_time <= CAST(:now AS timestamptz)
                            AND NOT EXISTS (SELECT 1 FROM merge_job o WHERE o.partition_id = j.partition_id AND o.state = 'ONGOING')
                          ORDER BY j.schedule_time, j.job_id
                          LIMIT 1
                          FOR UPDATE SKIP LOCKED)
                        UPDATE merge_job j SET state = 'ONGOING', lease_owner = :owner, claimed_at = CAST(:now AS timestamptz),
                               heartbeat_at = CAST(:now AS timestamptz), attempts = j.attempts + 1
                        FROM candidate WHERE j.job_id = candidate.job_id AND j.state = 'PENDING'
                        RETURNING j.job_id, j.partition_id, j.attempts, j.schedule_time""",
                Params.of("owner", owner).and("now", now),
                r -> new MergeJobClaim(r.getLong("job_id"), r.getLong("partition_id"), owner, r.getInt("attempts"),
                        r.getTime("schedule_time")));
    }

    /** Refreshes the lease; false when it was lost (the job was recovered by another worker). */
    public Uni<Boolean> heartbeat(MergeJobClaim claim, OffsetDateTime now) {
        return update("UPDATE merge_job SET heartbeat_at = CAST(:now AS timestamptz) WHERE " + FENCE,
                fence(claim).and("now", now))
                .map(updated -> updated == 1);
    }

    /** Locks the claimed job; false when the lease is no longer this worker's. */
    public Uni<Boolean> holds(MergeJobClaim claim) {
        return values("SELECT 1 FROM merge_job WHERE " + FENCE + " FOR UPDATE", Integer.class, fence(claim))
                .map(held -> !held.isEmpty());
    }

    /** FINISHED: nothing left to merge. Call after {@link #holds}. */
    public Uni<Integer> delete(long jobId) {
        return update("DELETE FROM merge_job WHERE job_id = :id", Params.of("id", jobId));
    }

    /** Ongoing jobs whose heartbeat is older than {@code deadline}, locked; rows another recoverer holds are skipped. */
    public Uni<List<Expired>> lockExpired(OffsetDateTime deadline, int limit) {
        return list("""
                        SELECT job_id, partition_id, schedule_time, attempts FROM merge_job
                        WHERE state = 'ONGOING' AND heartbeat_at < CAST(:deadline AS timestamptz)
                        ORDER BY heartbeat_at LIMIT :limit
                        FOR UPDATE SKIP LOCKED""",
                Params.of("deadline", deadline).and("limit", limit),
                r -> new Expired(r.getLong("job_id"), r.getLong("partition_id"), r.getTime("schedule_time"),
                        r.getInt("attempts")));
    }

    /** The partition of a dead job, locked; empty when the job is not dead. */
    public Uni<Optional<Long>> lockDead(long jobId) {
        return value("SELECT partition_id FROM merge_job WHERE job_id = :id AND state = 'DEAD' FOR UPDATE", Long.class,
                Params.of("id", jobId));
    }

    /**
     * The dead job stands for all of the partition's waiting work: a pending job created by arrivals during the
     * failing run is absorbed, and {@link #enqueue} creates none while the partition is parked.
     */
    public Uni<Integer> deadLetter(long jobId, long partitionId, String error) {
        return update("DELETE FROM merge_job WHERE partition_id = :p AND state = 'PENDING'",
                Params.of("p", partitionId))
                .chain(() -> update("""
                                UPDATE merge_job SET state = 'DEAD', lease_owner = NULL, heartbeat_at = NULL,
                                  last_error = CAST(:error AS text)
                                WHERE job_id = :id""",
                        Params.of("id", jobId).and("error", truncate(error))));
    }

    /**
     * Replaces a job by a pending one of its partition: inserted, or merged into the pending job that already exists
     * (earliest schedule, highest attempt count win), then the old row goes. In the caller's transaction, so a crash
     * leaves either the old row or the new one, never both or none.
     */
    public Uni<Integer> requeue(long jobId, long partitionId, OffsetDateTime scheduleTime, int attempts, String error) {
        return update("""
                        INSERT INTO merge_job (partition_id, state, schedule_time, attempts, last_error)
                        VALUES (:p, 'PENDING', :schedule, :attempts, CAST(:error AS text))
                        ON CONFLICT (partition_id) WHERE state = 'PENDING' DO UPDATE
                          SET schedule_time = LEAST(merge_job.schedule_time, EXCLUDED.schedule_time),
                              attempts = GREATEST(merge_job.attempts, EXCLUDED.attempts),
                              last_error = COALESCE(EXCLUDED.last_error, merge_job.last_error)""",
                Params.of("p", partitionId).and("schedule", scheduleTime).and("attempts", attempts)
                        .and("error", truncate(error)))
                .chain(() -> update("DELETE FROM merge_job WHERE job_id = :id AND state <> 'PENDING'",
                        Params.of("id", jobId)));
    }

    public Uni<Optional<MergeJob>> find(long jobId) {
        return first("SELECT " + COLUMNS + " FROM merge_job WHERE job_id = :id", Params.of("id", jobId),
                MergeJobRepository::map);
    }

    /** Jobs of the partitions of tables of applications the caller may see, optionally of one state and partition. */
    public Uni<List<MergeJob>> list(MergeJobState state, Long partitionId, Visibility visibility, int limit,
                                    int offset) {
        Where where = filter(state, partitionId, visibility);
        return list("SELECT " + COLUMNS + " FROM merge_job" + where.sql() + " ORDER BY job_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), MergeJobRepository::map);
    }

    public Uni<Long> count(MergeJobState state, Long partitionId, Visibility visibility) {
        Where where = filter(state, partitionId, visibility);
        return single("SELECT count(*) FROM merge_job" + where.sql(), Long.class, where.params());
    }

    /** Jobs of every partition by state; a state no job is in is absent. */
    public Uni<Map<MergeJobState, Long>> countByState() {
        return list("SELECT state, count(*) AS jobs FROM merge_job GROUP BY state", Params.none(),
                r -> Map.entry(r.getEnum("state", MergeJobState.class), r.getLong("jobs")))
                .map(rows -> {
                    Map<MergeJobState, Long> counts = new EnumMap<>(MergeJobState.class);
                    rows.forEach(e -> counts.put(e.getKey(), e.getValue()));
                    return counts;
                });
    }

    /** Jobs of one state and partition, each if given, of tables of applications the caller may see. */
    private static Where filter(MergeJobState state, Long partitionId, Visibility visibility) {
        return Where.all().eq("state", state == null ? null : state.name()).eq("partition_id", partitionId)
                .and(visible(APPLICATION), visibility.params());
    }

    /** The parameters of {@link #FENCE}. */
    private static Params fence(MergeJobClaim claim) {
        return Params.of("id", claim.jobId()).and("owner", claim.owner()).and("attempt", claim.attempt());
    }

    private static String truncate(String error) {
        return error == null || error.length() <= 500 ? error : error.substring(0, 500);
    }

    private static MergeJob map(Row r) {
        return new MergeJob(r.getLong("job_id"), r.getLong("partition_id"), r.getEnum("state", MergeJobState.class),
                r.getTime("schedule_time"), r.getInt("attempts"), r.getString("lease_owner"), r.getTime("heartbeat_at"),
                r.getString("last_error"));
    }
}
