package io.batchyard.execution.bucket;

import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** bucket_status: which buckets of a process wait, run, completed or failed. Joins the caller's transaction. */
@ApplicationScoped
public class BucketRepository extends SqlRepository {

    private final ServiceClock clock;

    public BucketRepository(ServiceClock clock) {
        this.clock = clock;
    }

    private static final String ROW = """
            SELECT process_id, bucket, status, instance_exec_id, attempts, message, updated_at, next_attempt_at
            FROM bucket_status""";

    /** Adds an INIT row unless the bucket is known; a COMPLETE bucket is never reset by this. */
    public Uni<Boolean> ensure(long processId, String bucket) {
        return update("""
                INSERT INTO bucket_status (process_id, bucket, status) VALUES (:p, :b, 'INIT')
                ON CONFLICT (process_id, bucket) DO NOTHING""", Params.of("p", processId).and("b", bucket.trim()))
                .map(inserted -> inserted > 0);
    }

    /**
     * A bucket whose run a trigger decided: INIT, added when unknown, and a COMPLETE bucket (and, for new data, a
     * FAILED one: {@code failedToo}) taken back to INIT with a fresh count of attempts; a RUNNING one is left to its
     * run. True when the bucket is INIT now.
     */
    public Uni<Boolean> rearm(long processId, String bucket, boolean failedToo) {
        return update("""
                INSERT INTO bucket_status (process_id, bucket, status) VALUES (:p, :b, 'INIT')
                ON CONFLICT (process_id, bucket) DO UPDATE SET status = 'INIT', message = NULL, attempts = 0,
                    next_attempt_at = NULL, updated_at = CAST(:now AS timestamptz)
                WHERE bucket_status.status = 'COMPLETE'
                   OR (CAST(:failed AS boolean) AND bucket_status.status = 'FAILED')""",
                Params.of("p", processId).and("b", bucket.trim()).and("now", clock.now()).and("failed", failedToo))
                .chain(changed -> find(processId, bucket.trim()))
                .map(row -> row.map(r -> r.status() == BucketStatus.State.INIT).orElse(false));
    }

    /** Takes INIT buckets back out of the runner's reach (a paused trigger); answers how many. */
    public Uni<Integer> withdraw(long processId, List<String> buckets) {
        if (buckets.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return update("DELETE FROM bucket_status WHERE process_id = :p AND bucket IN (:b) AND status = 'INIT'",
                Params.of("p", processId).and("b", buckets));
    }

    /**
     * The buckets a run may take now: INIT ones, and, when failed buckets are retried, FAILED ones that have attempts
     * left and whose back-off has passed.
     */
    public Uni<List<String>> eligible(long processId, boolean includeFailed, int maxAttempts) {
        return values("SELECT b.bucket FROM bucket_status b WHERE b.process_id = :p AND "
                + BucketEligibility.condition(":failed", ":max") + " ORDER BY b.bucket", String.class,
                Params.of("p", processId).and("failed", includeFailed).and("max", maxAttempts).and("now", clock.now()));
    }

    public Uni<Optional<BucketStatus>> find(long processId, String bucket) {
        return first(ROW + " WHERE process_id = :p AND bucket = :b", Params.of("p", processId).and("b", bucket),
                BucketRepository::row);
    }

    /** The ledger rows of these processes whose bucket lies between {@code from} and {@code to} (as text). */
    public Uni<List<BucketStatus>> between(List<Long> processIds, String from, String to) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list(ROW + " WHERE process_id = ANY(CAST(:ids AS bigint[])) AND bucket BETWEEN :from AND :to"
                        + " ORDER BY process_id, bucket",
                Params.of("ids", processIds.toArray(Long[]::new)).and("from", from).and("to", to),
                BucketRepository::row);
    }

    public Uni<List<BucketStatus>> list(long processId, State status, int limit, int offset) {
        Where where = filter(processId, status);
        return list(ROW + where.sql() + " ORDER BY bucket DESC" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), BucketRepository::row);
    }

    public Uni<Long> count(long processId, State status) {
        Where where = filter(processId, status);
        return single("SELECT count(*) FROM bucket_status" + where.sql(), Long.class, where.params());
    }

    private static Where filter(long processId, State status) {
        return Where.all().eq("process_id", processId).eq("status", status == null ? null : status.name());
    }

    /** How many buckets, of all processes, are in each state; a state no bucket is in is absent. */
    public Uni<Map<State, Long>> countByStatus() {
        return list("SELECT status, count(*) AS n FROM bucket_status GROUP BY status", Params.none(),
                r -> Map.entry(r.getEnum("status", State.class), r.getLong("n"))).map(rows -> {
                    Map<State, Long> counts = new EnumMap<>(State.class);
                    rows.forEach(e -> counts.put(e.getKey(), e.getValue()));
                    return counts;
                });
    }

    /**
     * Moves the given buckets from {@code from} to {@code to}; returns how many moved. Callers compare with the number
     * they asked for: the WHERE clause is the guard, so a bucket someone else moved first is simply not counted.
     */
    public Uni<Integer> move(long processId, List<String> buckets, State from, State to, Long instanceExecId,
                             String message) {
        if (!from.canBecome(to)) {
            return Uni.createFrom().failure(new IllegalStateException("bucket cannot go from " + from + " to " + to));
        }
        if (buckets.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return update("""
                UPDATE bucket_status b SET status = :to, message = CAST(:msg AS text),
                    -- updated_at on the service clock too: next_attempt_at - updated_at is the back-off just chosen
                    updated_at = CAST(:now AS timestamptz),
                    instance_exec_id = COALESCE(CAST(:ie AS bigint), instance_exec_id),
                    attempts = attempts + CASE WHEN :to = 'RUNNING' THEN 1 ELSE 0 END,
                    -- a failure is retried (if the policy retries) after the policy's back-off for the attempt that
                    -- just failed, with a random half of it taken off; any other move clears the wait
                    next_attempt_at = CASE WHEN :to = 'FAILED' THEN CAST(:now AS timestamptz) + (
                        SELECT make_interval(secs => LEAST(j.retry_max_backoff_seconds,
                                   j.retry_backoff_seconds * power(2, GREATEST(b.attempts, 1) - 1)) * (1 - random() / 2))
                        FROM runner_job j WHERE j.process_id = COALESCE(
                            -- a job of a group (a step with settings of its own) retries as its parent's policy says
                            (SELECT s.parent_id FROM runner_step_job s WHERE s.step_id = b.process_id), b.process_id)) END
                WHERE process_id = :p AND bucket IN (:b) AND status = :from""",
                Params.of("p", processId).and("b", buckets).and("from", from.name()).and("to", to.name())
                        .and("ie", instanceExecId).and("msg", message).and("now", clock.now()));
    }

    /**
     * These RUNNING buckets go back to INIT, their claim's attempt uncounted and no back-off: their run never started
     * because a service it needs did not answer, which says nothing about the buckets.
     */
    public Uni<Integer> giveBack(long processId, List<String> buckets, String message) {
        if (buckets.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return update("""
                UPDATE bucket_status SET status = 'INIT', message = CAST(:msg AS text),
                    updated_at = CAST(:now AS timestamptz), attempts = GREATEST(attempts - 1, 0),
                    next_attempt_at = NULL
                WHERE process_id = :p AND bucket IN (:b) AND status = 'RUNNING'""",
                Params.of("p", processId).and("b", buckets).and("msg", message).and("now", clock.now()));
    }

    /** Names the run that works on these RUNNING buckets. */
    public Uni<Void> attachRun(long processId, List<String> buckets, long instanceExecId) {
        if (buckets.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                UPDATE bucket_status SET instance_exec_id = :ie, updated_at = now()
                WHERE process_id = :p AND bucket IN (:b) AND status = 'RUNNING'""",
                Params.of("p", processId).and("b", buckets).and("ie", instanceExecId)).replaceWithVoid();
    }

    private static BucketStatus row(Row r) {
        return new BucketStatus(r.getLong("process_id"), r.getString("bucket"), r.getEnum("status", State.class),
                r.getLongOrNull("instance_exec_id"), r.getInt("attempts"), r.getString("message"),
                r.getTime("updated_at"), r.getTime("next_attempt_at"));
    }
}
