package io.batchyard.execution.backfill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.execution.backfill.PlanEntry.ReasonLink;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * backfill_plan and its entries; every method joins the caller's session. JSON travels as text (a Java string bound
 * straight to a jsonb parameter is stored as a JSON string), arrays are read as text.
 */
@ApplicationScoped
public class BackfillRepository extends SqlRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<ReasonLink>> REASON = new TypeReference<>() {
    };
    private static final TypeReference<List<PlanEntry.Consumed>> CONSUMES = new TypeReference<>() {
    };
    /** The processes backfill {@code b}'s request names as roots. */
    private static final String ROOTS = """
            SELECT DISTINCT CAST(r.root ->> 'processId' AS bigint) AS process_id
            FROM backfill_plan bp CROSS JOIN jsonb_array_elements(bp.request -> 'roots') AS r(root)
            WHERE bp.plan_id = b.plan_id""";
    /**
     * A list's condition on applications: every process the backfill's plan lists (its entries' and its request's
     * roots) is one of {@code :apps}' processes, the rule {@code GET /backfills/{id}} applies process by process.
     */
    private static final String READABLE = """
            NOT EXISTS (
              SELECT 1 FROM (SELECT pe.process_id FROM backfill_plan_entry pe WHERE pe.plan_id = b.plan_id
                             UNION %s) AS listed
              WHERE NOT EXISTS (SELECT 1 FROM process_definition p WHERE p.process_id = listed.process_id
                AND p.application_id = ANY(CAST(string_to_array(CAST(:apps AS text), ',') AS bigint[]))))"""
            .formatted(ROOTS);
    /** A backfill of a list with its roots, in ascending order ('' when its request named none). */
    private static final String LISTED = """
            SELECT b.backfill_id, b.plan_id, b.state, b.concurrency, b.on_failure, b.created_by, b.created_at,
              b.updated_at, b.version,
              COALESCE((SELECT string_agg(CAST(roots.process_id AS text), ',' ORDER BY roots.process_id)
                        FROM (%s) AS roots), '') AS root_process_ids
            FROM backfill b""".formatted(ROOTS);

    /** The plan and its entries, the entries in one statement from a JSON array. */
    public Uni<Void> insert(BackfillPlan plan) {
        return update("""
                        INSERT INTO backfill_plan (plan_id, request, fingerprint, created_by, created_at, levels, estimated_ms)
                        VALUES (:id, CAST(CAST(:request AS text) AS jsonb), :fingerprint, :by, :at, :levels, :estimated)""",
                Params.of("id", plan.planId()).and("request", json(plan.request()))
                        .and("fingerprint", plan.fingerprint()).and("by", plan.createdBy())
                        .and("at", plan.createdAt()).and("levels", plan.levels()).and("estimated", plan.estimatedMs()))
                .chain(() -> plan.entries().isEmpty() ? Uni.createFrom().item(0) : update("""
                        INSERT INTO backfill_plan_entry (plan_id, entry_no, level, process_id, bucket, replaced_run_id,
                          input_batch_ids, status, root, reason, estimated_ms, consumes, pruned)
                        SELECT :id, e.entry_no, e.level, e.process_id, e.bucket, e.replaced_run_id,
                          ARRAY(SELECT jsonb_array_elements_text(e.input_batch_ids)::bigint), e.status, e.root,
                          e.reason, e.estimated_ms, e.consumes, e.pruned
                        FROM jsonb_to_recordset(CAST(CAST(:entries AS text) AS jsonb)) AS e(entry_no int, level int,
                          process_id bigint, bucket text, replaced_run_id bigint, input_batch_ids jsonb, status text,
                          root boolean, reason jsonb, estimated_ms bigint, consumes jsonb, pruned text)""",
                        Params.of("id", plan.planId()).and("entries", json(plan.entries().stream()
                                .map(BackfillRepository::entryJson).toList()))))
                .replaceWithVoid();
    }

    public Uni<Optional<BackfillPlan>> find(UUID planId) {
        return first("""
                        SELECT plan_id, CAST(request AS text) AS request, fingerprint, created_by, created_at
                        FROM backfill_plan WHERE plan_id = :id""", Params.of("id", planId), r -> r)
                .chain(found -> found.isEmpty() ? Uni.createFrom().item(Optional.<BackfillPlan>empty())
                        : entries(planId).map(entries -> Optional.of(plan(found.get(), entries))));
    }

    private Uni<List<PlanEntry>> entries(UUID planId) {
        return list("""
                        SELECT entry_no, level, process_id, bucket, replaced_run_id,
                          array_to_string(input_batch_ids, ',') AS input_batch_ids, status, root,
                          CAST(reason AS text) AS reason, estimated_ms, CAST(consumes AS text) AS consumes, pruned
                        FROM backfill_plan_entry WHERE plan_id = :id ORDER BY entry_no""",
                Params.of("id", planId), BackfillRepository::entry);
    }

    /** A new backfill with its first transition (none → its state). */
    public Uni<Void> insert(Backfill b, String actor) {
        return update("""
                        WITH created AS (
                          INSERT INTO backfill (backfill_id, plan_id, state, concurrency, on_failure, created_by)
                          VALUES (:id, :plan, :state, :concurrency, :onFailure, :by) RETURNING backfill_id, state)
                        INSERT INTO backfill_transition (backfill_id, from_state, to_state, actor)
                        SELECT backfill_id, NULL, state, :by FROM created""",
                Params.of("id", b.backfillId()).and("plan", b.planId()).and("state", b.state().name())
                        .and("concurrency", b.concurrency()).and("onFailure", b.onFailure()).and("by", actor))
                .replaceWithVoid();
    }

    public Uni<Optional<Backfill>> findBackfill(UUID backfillId) {
        return first("""
                        SELECT backfill_id, plan_id, state, concurrency, on_failure, created_by, created_at, updated_at,
                          version
                        FROM backfill WHERE backfill_id = :id""", Params.of("id", backfillId),
                BackfillRepository::backfill);
    }

    /** The backfill, its row locked until the transaction ends: one driver step of it at a time. */
    public Uni<Optional<Backfill>> lockBackfill(UUID backfillId) {
        return first("""
                        SELECT backfill_id, plan_id, state, concurrency, on_failure, created_by, created_at, updated_at,
                          version
                        FROM backfill WHERE backfill_id = :id FOR UPDATE""", Params.of("id", backfillId),
                BackfillRepository::backfill);
    }

    /** Backfills waiting to run or running, oldest first. */
    public Uni<List<UUID>> waitingOrRunning() {
        return values("SELECT backfill_id FROM backfill WHERE state IN ('QUEUED', 'RUNNING') ORDER BY created_at",
                UUID.class, Params.none());
    }

    /**
     * Moves a backfill from the state it was read in, guarded by its version (a concurrent move makes this one change
     * nothing: 0), and records the move.
     */
    public Uni<Integer> move(Backfill b, BackfillState to, String actor) {
        return update("""
                        WITH moved AS (
                          UPDATE backfill SET state = :to, updated_at = now(), version = version + 1
                          WHERE backfill_id = :id AND version = :version AND state = :from RETURNING backfill_id)
                        INSERT INTO backfill_transition (backfill_id, from_state, to_state, actor)
                        SELECT backfill_id, :from, :to, :actor FROM moved""",
                Params.of("id", b.backfillId()).and("version", b.version()).and("from", b.state().name())
                        .and("to", to.name()).and("actor", actor));
    }

    /** How many backfills are in each state; a state none is in is absent. */
    public Uni<Map<BackfillState, Long>> countByState() {
        return list("SELECT state, count(*) AS n FROM backfill GROUP BY state", Params.none(),
                r -> Map.entry(r.getEnum("state", BackfillState.class), r.getLong("n")))
                .map(rows -> {
                    Map<BackfillState, Long> counts = new EnumMap<>(BackfillState.class);
                    rows.forEach(e -> counts.put(e.getKey(), e.getValue()));
                    return counts;
                });
    }

    /**
     * A page of backfills, newest first, with their roots and their entries counted per level; {@code applications}
     * empty: all of them, else only those whose plan lists processes of these applications alone.
     */
    public Uni<List<BackfillSummary>> list(BackfillState state, Optional<List<Long>> applications, int limit,
                                           int offset) {
        Where where = filter(state, applications);
        return list(LISTED + where.sql() + " ORDER BY b.created_at DESC, b.backfill_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()),
                r -> Map.entry(backfill(r), r.getLongs("root_process_ids")))
                .chain(rows -> levels(rows.stream().map(row -> row.getKey().backfillId()).toList())
                        .map(levels -> rows.stream().map(row -> new BackfillSummary(row.getKey(), row.getValue(),
                                BackfillSummary.Progress.of(levels.getOrDefault(row.getKey().backfillId(),
                                        List.of())))).toList()));
    }

    public Uni<Long> count(BackfillState state, Optional<List<Long>> applications) {
        Where where = filter(state, applications);
        return single("SELECT count(*) FROM backfill b" + where.sql(), Long.class, where.params());
    }

    private static Where filter(BackfillState state, Optional<List<Long>> applications) {
        Where where = Where.all().eq("b.state", state == null ? null : state.name());
        applications.ifPresent(ids -> where.and(READABLE,
                Params.of("apps", ids.stream().map(String::valueOf).collect(Collectors.joining(",")))));
        return where;
    }

    /**
     * Each backfill's entries counted per level, lowest level first, by {@link BackfillProgressView.Level#of}'s
     * rule. Its plan's entries that run are the rows (a pruned one never runs), so that a backfill that has not run
     * yet (no entries of its own) counts them all as pending.
     */
    private static Uni<Map<UUID, List<BackfillProgressView.Level>>> levels(List<UUID> backfillIds) {
        if (backfillIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list("""
                        SELECT b.backfill_id, p.level, COALESCE(e.state, 'PENDING') AS state, count(*) AS n
                        FROM backfill b JOIN backfill_plan_entry p ON p.plan_id = b.plan_id AND p.pruned IS NULL
                        LEFT JOIN backfill_entry e ON e.backfill_id = b.backfill_id AND e.entry_no = p.entry_no
                        WHERE b.backfill_id IN (:ids)
                        GROUP BY b.backfill_id, p.level, COALESCE(e.state, 'PENDING')""",
                Params.of("ids", backfillIds), r -> new LevelCount(r.getUuid("backfill_id"), r.getInt("level"),
                        r.getEnum("state", EntryState.class), r.getLong("n")))
                .map(rows -> {
                    Map<UUID, TreeMap<Integer, Map<EntryState, Long>>> counts = new HashMap<>();
                    rows.forEach(c -> counts.computeIfAbsent(c.backfillId(), id -> new TreeMap<>())
                            .computeIfAbsent(c.level(), l -> new EnumMap<>(EntryState.class)).put(c.state(), c.n()));
                    Map<UUID, List<BackfillProgressView.Level>> levels = new HashMap<>();
                    counts.forEach((id, byLevel) -> levels.put(id, byLevel.entrySet().stream()
                            .map(l -> BackfillProgressView.Level.of(l.getKey(), l.getValue())).toList()));
                    return levels;
                });
    }

    /** How many of a backfill's entries of one level are in one state. */
    private record LevelCount(UUID backfillId, int level, EntryState state, long n) {
    }

    private static Backfill backfill(Row r) {
        return new Backfill(r.getUuid("backfill_id"), r.getUuid("plan_id"), r.getEnum("state", BackfillState.class),
                r.getInt("concurrency"), r.getString("on_failure"), r.getString("created_by"), r.getTime("created_at"),
                r.getTime("updated_at"), r.getInt("version"));
    }

    private static BackfillPlan plan(Row r, List<PlanEntry> entries) {
        return BackfillPlan.of(r.getUuid("plan_id"), r.getString("fingerprint"),
                read(r.getString("request"), new TypeReference<BackfillRequest>() {
                }), r.getString("created_by"), r.getTime("created_at"), entries);
    }

    private static PlanEntry entry(Row r) {
        return new PlanEntry(r.getInt("entry_no"), r.getInt("level"), r.getLong("process_id"), r.getString("bucket"),
                r.getLongOrNull("replaced_run_id"), r.getLongs("input_batch_ids"), r.getString("status"),
                r.getBoolean("root"), read(r.getString("reason"), REASON), r.getLongOrNull("estimated_ms"),
                read(r.getString("consumes"), CONSUMES), r.getString("pruned"));
    }

    private static Map<String, Object> entryJson(PlanEntry e) {
        Map<String, Object> m = new HashMap<>();
        m.put("entry_no", e.entryNo());
        m.put("level", e.level());
        m.put("process_id", e.processId());
        m.put("bucket", e.bucket());
        m.put("replaced_run_id", e.replacedRunId());
        m.put("input_batch_ids", e.inputBatchIds());
        m.put("status", e.status());
        m.put("root", e.root());
        m.put("reason", e.reason());
        m.put("estimated_ms", e.estimatedMs());
        m.put("consumes", e.consumes());
        m.put("pruned", e.pruned());
        return m;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored backfill plan is not readable JSON", e);
        }
    }
}
