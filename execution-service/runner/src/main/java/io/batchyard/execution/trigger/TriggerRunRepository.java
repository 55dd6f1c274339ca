package io.batchyard.execution.trigger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * trigger_input, trigger_bucket and trigger_run: the inputs of a parent's buckets, whether each bucket still waits,
 * and the runs its triggers decided with the batches attributed to them. Every call joins the caller's transaction;
 * the decisions about one parent are serialised by its trigger_policy row's lock
 * ({@link TriggerPolicyRepository#lock}).
 */
@ApplicationScoped
public class TriggerRunRepository extends SqlRepository {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    private static final TypeReference<List<TriggerRun.Missing>> MISSING = new TypeReference<>() { };

    /** One input as recorded. */
    public record Input(long processId, String bucket, Long sourceProcessId, long sourceBatchId, long queueId,
                        long stepId, String inputBucket, OffsetDateTime arrivedAt) {
    }

    /** A bucket with inputs: WAITING or FIRED, since its first input, with an all-with-timeout deadline. */
    public record BucketState(String state, OffsetDateTime firstInputAt, OffsetDateTime timeoutAt) {
        public boolean waiting() {
            return "WAITING".equals(state);
        }
    }

    /** What arrived for a bucket and is not yet attributed to a run: by whom, under which key of its own. */
    public record Arrival(Long sourceProcessId, String inputBucket) {
    }

    /** A waiting bucket as /why lists it, with what arrived. */
    public record Waiting(long processId, String bucket, OffsetDateTime firstInputAt, OffsetDateTime timeoutAt,
                          List<Arrival> arrived) {
    }

    /** A bucket whose timeout passed, locked for the sweep that fires it. */
    public record Due(long processId, String bucket) {
    }

    /** Records an input; answers its id. */
    public Uni<Long> insertInput(Input i) {
        return single("""
                INSERT INTO trigger_input (process_id, bucket, source_process_id, source_batch_id, queue_id, step_id,
                                           input_bucket, arrived_at)
                VALUES (:p, :b, CAST(:sp AS bigint), :sb, :q, :s, CAST(:ib AS text), CAST(:at AS timestamptz))
                RETURNING id""", Long.class,
                Params.of("p", i.processId()).and("b", i.bucket()).and("sp", i.sourceProcessId())
                        .and("sb", i.sourceBatchId()).and("q", i.queueId()).and("s", i.stepId())
                        .and("ib", i.inputBucket()).and("at", i.arrivedAt()));
    }

    /** The bucket's state; empty before its first input. */
    public Uni<Optional<BucketState>> bucket(long processId, String bucket) {
        return first("""
                SELECT state, first_input_at, timeout_at FROM trigger_bucket WHERE process_id = :p AND bucket = :b""",
                Params.of("p", processId).and("b", bucket), r -> new BucketState(r.getString("state"),
                        r.getTime("first_input_at"), r.getTime("timeout_at")));
    }

    /** Opens a bucket at its first input (WAITING, with its deadline under all-with-timeout). */
    public Uni<Void> openBucket(long processId, String bucket, OffsetDateTime firstInputAt, OffsetDateTime timeoutAt) {
        return update("""
                INSERT INTO trigger_bucket (process_id, bucket, state, first_input_at, timeout_at)
                VALUES (:p, :b, 'WAITING', CAST(:first AS timestamptz), CAST(:timeout AS timestamptz))
                ON CONFLICT (process_id, bucket) DO NOTHING""",
                Params.of("p", processId).and("b", bucket).and("first", firstInputAt).and("timeout", timeoutAt))
                .replaceWithVoid();
    }

    public Uni<Void> fireBucket(long processId, String bucket) {
        return update("UPDATE trigger_bucket SET state = 'FIRED' WHERE process_id = :p AND bucket = :b",
                Params.of("p", processId).and("b", bucket)).replaceWithVoid();
    }

    /**
     * The oldest waiting bucket of the parent that nothing from {@code sourceProcessId} arrived for: where an input
     * without a bucket of its own goes under the upstream grain, so that the n-th batch of each input process meet.
     */
    public Uni<Optional<String>> oldestWaitingWithout(long processId, long sourceProcessId) {
        return value("""
                SELECT b.bucket FROM trigger_bucket b
                WHERE b.process_id = :p AND b.state = 'WAITING' AND NOT EXISTS (
                    SELECT 1 FROM trigger_input i WHERE i.process_id = b.process_id AND i.bucket = b.bucket
                      AND i.source_process_id = :sp)
                ORDER BY b.first_input_at, b.bucket LIMIT 1""", String.class,
                Params.of("p", processId).and("sp", sourceProcessId));
    }

    /** What arrived for the bucket and no run consumes yet. */
    public Uni<List<Arrival>> arrivals(long processId, String bucket) {
        return list("""
                SELECT source_process_id, input_bucket FROM trigger_input
                WHERE process_id = :p AND bucket = :b AND run_id IS NULL AND NOT late ORDER BY id""",
                Params.of("p", processId).and("b", bucket), TriggerRunRepository::arrival);
    }

    /** The bucket's PENDING run, locked (the runner's start waits for this transaction, or this one for it). */
    public Uni<Optional<Long>> lockPending(long processId, String bucket) {
        return value("""
                SELECT id FROM trigger_run WHERE process_id = :p AND bucket = :b AND state = 'PENDING'
                ORDER BY id DESC LIMIT 1 FOR UPDATE""", Long.class, Params.of("p", processId).and("b", bucket));
    }

    /** The parent a trigger run belongs to. */
    public Uni<Long> processOf(long runId) {
        return single("SELECT process_id FROM trigger_run WHERE id = :r", Long.class, Params.of("r", runId));
    }

    /** The newest run of the bucket, whatever its state. */
    public Uni<Optional<Long>> latestRun(long processId, String bucket) {
        return value("SELECT max(id) FROM trigger_run WHERE process_id = :p AND bucket = :b", Long.class,
                Params.of("p", processId).and("b", bucket));
    }

    /** A new PENDING run of the bucket; answers its id. */
    public Uni<Long> insertRun(long processId, String bucket, String reason, List<TriggerRun.Missing> missing,
                               OffsetDateTime firstEventAt, String eventId, OffsetDateTime createdAt) {
        return single("""
                INSERT INTO trigger_run (process_id, bucket, state, reason, missing, first_event_at, event_id,
                                         created_at)
                VALUES (:p, :b, 'PENDING', :r, CAST(CAST(:m AS text) AS jsonb), CAST(:fe AS timestamptz),
                        CAST(:e AS text), CAST(:at AS timestamptz))
                RETURNING id""", Long.class,
                Params.of("p", processId).and("b", bucket).and("r", cut(reason)).and("m", json(missing))
                        .and("fe", firstEventAt).and("e", eventId).and("at", createdAt));
    }

    /** Every unattributed input of the bucket goes to the run. */
    public Uni<Integer> attachArrivals(long processId, String bucket, long runId) {
        return update("""
                UPDATE trigger_input SET run_id = :r
                WHERE process_id = :p AND bucket = :b AND run_id IS NULL AND NOT late""",
                Params.of("p", processId).and("b", bucket).and("r", runId));
    }

    /** One input goes to a run; {@code late}: it arrived after the run had started and is only shown with it. */
    public Uni<Void> attachInput(long inputId, long runId, boolean late) {
        return update("UPDATE trigger_input SET run_id = :r, late = :late WHERE id = :i",
                Params.of("i", inputId).and("r", runId).and("late", late)).replaceWithVoid();
    }

    /** An input that arrived too late for a run that never was (its bucket fired, the run was skipped...). */
    public Uni<Void> markLate(long inputId) {
        return update("UPDATE trigger_input SET late = TRUE WHERE id = :i", Params.of("i", inputId)).replaceWithVoid();
    }

    /**
     * The runner starts the parent's runs of these buckets: every PENDING one, and a STARTED one whose start was lost
     * before it became a run (no instance id), are marked STARTED; answers their ids. Run after the rows' locks, so an
     * input that joined a run before this statement is among its batches, and one that comes after finds it started.
     */
    public Uni<List<Long>> start(long processId, Collection<String> buckets, OffsetDateTime now) {
        if (buckets.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return values("""
                UPDATE trigger_run SET state = 'STARTED', started_at = COALESCE(started_at, CAST(:now AS timestamptz))
                WHERE process_id = :p AND bucket IN (:b)
                  AND (state = 'PENDING' OR (state = 'STARTED' AND instance_exec_id IS NULL))
                RETURNING id""", Long.class, Params.of("p", processId).and("b", buckets).and("now", now));
    }

    /** The source batches attributed to these runs (late inputs are not theirs to consume). */
    public Uni<List<Long>> sourceBatches(Collection<Long> runIds) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return values("""
                SELECT DISTINCT source_batch_id FROM trigger_input WHERE run_id IN (:r) AND NOT late
                ORDER BY source_batch_id""", Long.class, Params.of("r", runIds));
    }

    /** The earliest input event time of these runs: where the trigger's latency starts. */
    public Uni<Optional<OffsetDateTime>> firstEventAt(Collection<Long> runIds) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return first("SELECT min(first_event_at) AS at FROM trigger_run WHERE id IN (:r)", Params.of("r", runIds),
                r -> Optional.ofNullable(r.getTime("at"))).map(found -> found.flatMap(t -> t));
    }

    /** These runs, taken by a start that did not become a run, are PENDING again, their batches still theirs. */
    public Uni<Void> unstart(Collection<Long> runIds) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                UPDATE trigger_run SET state = 'PENDING', started_at = NULL
                WHERE id IN (:r) AND state = 'STARTED' AND instance_exec_id IS NULL""", Params.of("r", runIds))
                .replaceWithVoid();
    }

    public Uni<Void> recordInstance(Collection<Long> runIds, long instanceExecId) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("UPDATE trigger_run SET instance_exec_id = :ie WHERE id IN (:r)",
                Params.of("r", runIds).and("ie", instanceExecId)).replaceWithVoid();
    }

    /** Marks these runs STARTED by the launcher hook (no run of this service: the orchestrator's). */
    public Uni<Void> launched(Collection<Long> runIds, OffsetDateTime now) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                UPDATE trigger_run SET state = 'STARTED', started_at = CAST(:now AS timestamptz)
                WHERE id IN (:r) AND state = 'PENDING'""", Params.of("r", runIds).and("now", now)).replaceWithVoid();
    }

    public Uni<Void> skip(Collection<Long> runIds) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("UPDATE trigger_run SET state = 'SKIPPED' WHERE id IN (:r) AND state = 'PENDING'",
                Params.of("r", runIds)).replaceWithVoid();
    }

    /**
     * The parent's PENDING runs, oldest bucket first (then oldest run), locked for a resume. Keys of one shape order
     * by length first, so {@code batch-99} comes before {@code batch-100} as {@code 20260329} before {@code 20260330}.
     */
    public Uni<List<Long>> pending(long processId) {
        return values("""
                SELECT id FROM trigger_run WHERE process_id = :p AND state = 'PENDING'
                ORDER BY length(bucket), bucket, id FOR UPDATE""",
                Long.class, Params.of("p", processId));
    }

    /** The buckets of these runs, in the order of the ids given. */
    public Uni<List<TriggerRun>> runs(List<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list(RUNS + " WHERE id IN (:ids)", Params.of("ids", ids), TriggerRunRepository::run)
                .chain(this::withBatches).map(found -> {
                    Map<Long, TriggerRun> byId = found.stream().collect(Collectors.toMap(TriggerRun::id, r -> r));
                    return ids.stream().map(byId::get).filter(r -> r != null).toList();
                });
    }

    /** A page of the parent's runs, newest first, each with its batches. */
    public Uni<List<TriggerRun>> page(long processId, Paging paging) {
        return list(RUNS + " WHERE process_id = :p ORDER BY id DESC" + Paging.CLAUSE,
                Params.of("p", processId).and(paging.params()), TriggerRunRepository::run).chain(this::withBatches);
    }

    public Uni<Long> count(long processId) {
        return single("SELECT count(*) FROM trigger_run WHERE process_id = :p", Long.class, Params.of("p", processId));
    }

    /**
     * PENDING runs of parents that are not paused, decided (or last taken by this) before {@code before}, at most
     * {@code limit}: starts that were lost or failed. Each is stamped {@code now}, so it comes back after the same
     * wait at the earliest; SKIP LOCKED lets several replicas' sweeps take different runs.
     */
    public Uni<List<Long>> stalePending(OffsetDateTime before, OffsetDateTime now, int limit) {
        return values("""
                UPDATE trigger_run SET relaunched_at = CAST(:now AS timestamptz)
                WHERE id IN (SELECT r.id FROM trigger_run r JOIN trigger_policy p ON p.process_id = r.process_id
                             WHERE r.state = 'PENDING' AND NOT p.paused
                               AND COALESCE(r.relaunched_at, r.created_at) < CAST(:before AS timestamptz)
                             ORDER BY r.created_at LIMIT :limit FOR UPDATE OF r SKIP LOCKED)
                RETURNING id""", Long.class, Params.of("before", before).and("now", now).and("limit", limit));
    }

    /** The parent's PENDING runs. */
    public Uni<Long> countPending(long processId) {
        return single("SELECT count(*) FROM trigger_run WHERE process_id = :p AND state = 'PENDING'", Long.class,
                Params.of("p", processId));
    }

    /** PENDING runs of every parent: the gauge's value. */
    public Uni<Long> countPending() {
        return single("SELECT count(*) FROM trigger_run WHERE state = 'PENDING'", Long.class, Params.none());
    }

    /**
     * All-with-timeout buckets whose deadline passed, at most {@code limit}, with their parents' trigger_policy rows
     * locked: the lock every decision about a parent takes, so a sweep never decides beside an input of the same
     * parent, and of several replicas' sweeps one takes a parent while the others skip it. The caller reads each
     * bucket again after the lock (an input may have fired it just before).
     */
    public Uni<List<Due>> dueTimeouts(OffsetDateTime now, int limit) {
        return list("""
                SELECT b.process_id, b.bucket FROM trigger_bucket b
                JOIN trigger_policy p ON p.process_id = b.process_id
                WHERE b.state = 'WAITING' AND b.timeout_at IS NOT NULL AND b.timeout_at <= CAST(:now AS timestamptz)
                ORDER BY b.timeout_at LIMIT :limit FOR UPDATE OF p SKIP LOCKED""",
                Params.of("now", now).and("limit", limit),
                r -> new Due(r.getLong("process_id"), r.getString("bucket")));
    }

    /**
     * The parent's oldest waiting buckets (at most {@code limit}) with what arrived for each: one indexed query
     * (trigger_bucket's waiting index, then trigger_input's by bucket).
     */
    public Uni<List<Waiting>> waiting(long processId, int limit) {
        return list("""
                SELECT b.bucket, b.first_input_at, b.timeout_at, i.source_process_id, i.input_bucket
                FROM (SELECT bucket, first_input_at, timeout_at FROM trigger_bucket
                      WHERE process_id = :p AND state = 'WAITING' ORDER BY first_input_at, bucket LIMIT :limit) b
                LEFT JOIN trigger_input i ON i.process_id = :p AND i.bucket = b.bucket AND i.run_id IS NULL
                                         AND NOT i.late
                ORDER BY b.first_input_at, b.bucket, i.id""", Params.of("p", processId).and("limit", limit), r -> r)
                .map(rows -> {
                    Map<String, Waiting> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        Waiting w = out.computeIfAbsent(r.getString("bucket"), b -> new Waiting(processId, b,
                                r.getTime("first_input_at"), r.getTime("timeout_at"), new ArrayList<>()));
                        if (r.get("input_bucket") != null || r.get("source_process_id") != null) {
                            w.arrived().add(arrival(r));
                        }
                    }
                    return List.copyOf(out.values());
                });
    }

    private static final String RUNS = """
            SELECT id, bucket, state, reason, CAST(missing AS text) AS missing, created_at, started_at,
                   instance_exec_id, event_id FROM trigger_run""";

    private Uni<List<TriggerRun>> withBatches(List<TriggerRun> runs) {
        if (runs.isEmpty()) {
            return Uni.createFrom().item(runs);
        }
        List<Long> ids = runs.stream().map(TriggerRun::id).toList();
        return list("""
                SELECT run_id, queue_id, source_process_id, source_batch_id, input_bucket, step_id, late
                FROM trigger_input
                WHERE run_id IN (:r) ORDER BY run_id, source_process_id, input_bucket, source_batch_id""",
                Params.of("r", ids), r -> r).map(rows -> runs.stream().map(run -> {
                    List<TriggerRun.Batch> batches = new ArrayList<>();
                    int late = 0;
                    for (Row r : rows) {
                        if (r.getLong("run_id") != run.id()) {
                            continue;
                        }
                        if (r.getBoolean("late")) {
                            late++;
                        } else {
                            batches.add(new TriggerRun.Batch(r.getLong("queue_id"),
                                    r.getLongOrNull("source_process_id"), r.getLong("source_batch_id"),
                                    r.getString("input_bucket"), r.getLong("step_id")));
                        }
                    }
                    return new TriggerRun(run.id(), run.bucket(), run.state(), run.reason(), List.copyOf(batches),
                            run.missing(), late, run.createdAt(), run.startedAt(), run.instanceExecId(),
                            run.eventId());
                }).toList());
    }

    private static TriggerRun run(Row r) {
        List<TriggerRun.Missing> missing;
        try {
            missing = JSON.readValue(r.getString("missing"), MISSING);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        return new TriggerRun(r.getLong("id"), r.getString("bucket"), r.getString("state"), r.getString("reason"),
                List.of(), missing, 0, r.getTime("created_at"), r.getTime("started_at"),
                r.getLongOrNull("instance_exec_id"), r.getString("event_id"));
    }

    private static Arrival arrival(Row r) {
        return new Arrival(r.getLongOrNull("source_process_id"), r.getString("input_bucket"));
    }

    private static String json(List<TriggerRun.Missing> missing) {
        try {
            return JSON.writeValueAsString(missing);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String cut(String reason) {
        return reason.length() <= 1000 ? reason : reason.substring(0, 999) + "…";
    }
}
