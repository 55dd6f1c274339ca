package io.batchyard.execution.backfill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * backfill_entry: a running backfill's entries as they go. Every method joins the caller's session; every move is
 * guarded by the state it leaves, so a move a concurrent one beat changes nothing.
 */
@ApplicationScoped
public class BackfillEntryRepository extends SqlRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<PlanEntry.Consumed>> CONSUMES = new TypeReference<>() {
    };
    /** An entry row ({@code e}) with its plan entry: the select list, then the joins that follow {@code e}. */
    private static final String SELECT = """
            SELECT e.backfill_id, e.entry_no, e.level, e.process_id, e.bucket, e.state,
              array_to_string(e.source_batch_ids, ',') AS source_batch_ids, e.source_batch_ids IS NULL AS ordinary,
              e.instance_exec_id, e.target_batch_id, e.message, e.started_at, e.ended_at,
              CAST(p.consumes AS text) AS consumes, array_to_string(p.input_batch_ids, ',') AS input_batch_ids,
              p.status AS replaced_status
            """;
    private static final String PLAN_JOINS = """
            JOIN backfill b ON b.backfill_id = e.backfill_id
            JOIN backfill_plan_entry p ON p.plan_id = b.plan_id AND p.entry_no = e.entry_no
            """;
    private static final String COLUMNS = SELECT + "FROM backfill_entry e\n" + PLAN_JOINS;

    /** The plan's entries as PENDING rows of the backfill, unless it has them already (a resume keeps them). */
    public Uni<Integer> materialise(UUID backfillId) {
        return update("""
                        INSERT INTO backfill_entry (backfill_id, entry_no, level, process_id, bucket, state)
                        SELECT b.backfill_id, p.entry_no, p.level, p.process_id, p.bucket, 'PENDING'
                        FROM backfill b JOIN backfill_plan_entry p ON p.plan_id = b.plan_id
                        WHERE b.backfill_id = :id AND p.pruned IS NULL
                        ON CONFLICT (backfill_id, entry_no) DO NOTHING""", Params.of("id", backfillId));
    }

    /** A resume: failed and skipped entries are PENDING again, to run afresh. */
    public Uni<Integer> reopen(UUID backfillId) {
        return update("""
                        UPDATE backfill_entry SET state = 'PENDING', message = NULL, instance_exec_id = NULL,
                          target_batch_id = NULL, started_at = NULL, ended_at = NULL, updated_at = now()
                        WHERE backfill_id = :id AND state IN ('FAILED', 'SKIPPED')""", Params.of("id", backfillId));
    }

    public Uni<List<EntryRun>> entries(UUID backfillId) {
        return list(COLUMNS + " WHERE e.backfill_id = :id ORDER BY e.entry_no", Params.of("id", backfillId),
                BackfillEntryRepository::row);
    }

    /** The backfills that have an entry in flight, whatever their own state (a paused one's runs still end). */
    public Uni<List<UUID>> withEntriesInFlight() {
        return values("SELECT DISTINCT backfill_id FROM backfill_entry WHERE state IN ('STARTING', 'RUNNING')",
                UUID.class, Params.none());
    }

    /** Moves one entry from {@code from}; 0 when it was not in that state. */
    public Uni<Integer> move(UUID backfillId, int entryNo, EntryState from, EntryState to, String message,
                             OffsetDateTime now) {
        return update("""
                        UPDATE backfill_entry SET state = :to, message = CAST(:message AS text), updated_at = now(),
                          ended_at = CASE WHEN :to IN ('SUCCEEDED', 'FAILED', 'SKIPPED') THEN CAST(:now AS timestamptz)
                                          ELSE ended_at END
                        WHERE backfill_id = :id AND entry_no = :entry AND state = :from""",
                Params.of("id", backfillId).and("entry", entryNo).and("from", from.name()).and("to", to.name())
                        .and("message", message).and("now", now));
    }

    /** PENDING → STARTING with the batches its run claims by name (null: the ordinary claim). */
    public Uni<Integer> starting(UUID backfillId, int entryNo, List<Long> sourceBatchIds, OffsetDateTime now) {
        return update("""
                        UPDATE backfill_entry SET state = 'STARTING', source_batch_ids = CAST(:sources AS bigint[]),
                          started_at = CAST(:now AS timestamptz), updated_at = now()
                        WHERE backfill_id = :id AND entry_no = :entry AND state = 'PENDING'""",
                Params.of("id", backfillId).and("entry", entryNo)
                        .and("sources", sourceBatchIds == null ? null : sourceBatchIds.toArray(Long[]::new))
                        .and("now", now));
    }

    /** RUNNING → SUCCEEDED with the run's output. */
    public Uni<Integer> succeeded(UUID backfillId, int entryNo, Long targetBatchId, OffsetDateTime now) {
        return update("""
                        UPDATE backfill_entry SET state = 'SUCCEEDED', target_batch_id = CAST(:target AS bigint),
                          ended_at = CAST(:now AS timestamptz), updated_at = now()
                        WHERE backfill_id = :id AND entry_no = :entry AND state = 'RUNNING'""",
                Params.of("id", backfillId).and("entry", entryNo).and("target", targetBatchId).and("now", now));
    }

    /**
     * The runner starts a run of these buckets of the process: the in-flight entries of one backfill (the one that
     * handed its bucket over first) become RUNNING and are answered.
     */
    public Uni<List<EntryRun>> attribute(long processId, Collection<String> buckets) {
        return list("""
                        WITH chosen AS (
                          SELECT backfill_id FROM backfill_entry
                          WHERE process_id = :p AND bucket IN (:buckets) AND state IN ('STARTING', 'RUNNING')
                          ORDER BY started_at, backfill_id LIMIT 1),
                        taken AS (
                          UPDATE backfill_entry e SET state = 'RUNNING', updated_at = now()
                          FROM chosen
                          WHERE e.backfill_id = chosen.backfill_id AND e.process_id = :p AND e.bucket IN (:buckets)
                            AND e.state IN ('STARTING', 'RUNNING')
                          RETURNING e.backfill_id, e.entry_no)
                        """ + SELECT + "FROM taken t JOIN backfill_entry e"
                        + " ON e.backfill_id = t.backfill_id AND e.entry_no = t.entry_no\n" + PLAN_JOINS
                        + " ORDER BY e.entry_no",
                Params.of("p", processId).and("buckets", buckets), BackfillEntryRepository::row)
                // The statement's snapshot shows the rows as they were before its own update.
                .map(rows -> rows.stream().map(r -> r.with(EntryState.RUNNING)).toList());
    }

    /** The runner's run of these entries is {@code instanceExecId}. */
    public Uni<Integer> started(UUID backfillId, Collection<Long> entryNos, long instanceExecId) {
        return update("""
                        UPDATE backfill_entry SET instance_exec_id = :ie, updated_at = now()
                        WHERE backfill_id = :id AND entry_no IN (:entries) AND state = 'RUNNING'""",
                Params.of("id", backfillId).and("entries", entryNos.stream().map(Long::intValue).toList())
                        .and("ie", instanceExecId));
    }

    /** The run could not start yet: the entries wait for the runner's next try again. */
    public Uni<Integer> notStarted(UUID backfillId, Collection<Long> entryNos) {
        return update("""
                        UPDATE backfill_entry SET state = 'STARTING', updated_at = now()
                        WHERE backfill_id = :id AND entry_no IN (:entries) AND state = 'RUNNING'""",
                Params.of("id", backfillId).and("entries", entryNos.stream().map(Long::intValue).toList()));
    }

    /** The backfill's entries by state; a state none is in is absent. */
    public Uni<Map<EntryState, Long>> countByState(UUID backfillId) {
        return byState("SELECT state, count(*) AS n FROM backfill_entry WHERE backfill_id = :id GROUP BY state",
                Params.of("id", backfillId));
    }

    /** Entries of backfills not ended (QUEUED, RUNNING, PAUSED) by state; a state none is in is absent. */
    public Uni<Map<EntryState, Long>> countLiveByState() {
        return byState("""
                        SELECT e.state, count(*) AS n FROM backfill_entry e JOIN backfill b ON b.backfill_id = e.backfill_id
                        WHERE b.state IN ('QUEUED', 'RUNNING', 'PAUSED') GROUP BY e.state""", Params.none());
    }

    private static Uni<Map<EntryState, Long>> byState(String sql, Params params) {
        return list(sql, params, r -> Map.entry(r.getEnum("state", EntryState.class), r.getLong("n")))
                .map(rows -> {
                    Map<EntryState, Long> counts = new EnumMap<>(EntryState.class);
                    rows.forEach(e -> counts.put(e.getKey(), e.getValue()));
                    return counts;
                });
    }

    private static EntryRun row(Row r) {
        return new EntryRun(r.getUuid("backfill_id"), r.getInt("entry_no"), r.getInt("level"), r.getLong("process_id"),
                r.getString("bucket"), r.getEnum("state", EntryState.class),
                r.getBoolean("ordinary") ? null : r.getLongs("source_batch_ids"), r.getLongOrNull("instance_exec_id"),
                r.getLongOrNull("target_batch_id"), r.getString("message"), r.getTime("started_at"),
                r.getTime("ended_at"), read(r.getString("consumes")), r.getLongs("input_batch_ids"),
                r.getString("replaced_status"));
    }

    private static List<PlanEntry.Consumed> read(String json) {
        try {
            return json == null ? List.of() : JSON.readValue(json, CONSUMES);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored backfill plan entry is not readable JSON", e);
        }
    }
}
