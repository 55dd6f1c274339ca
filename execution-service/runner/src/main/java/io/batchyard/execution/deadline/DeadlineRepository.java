package io.batchyard.execution.deadline;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The SQL of {@code deadline_instance}; joins the caller's session or transaction. Every transition is one UPDATE
 * guarded by the state it leaves and answers the rows it moved with that state: a row two replicas race for moves
 * once, and only the winner announces it.
 */
@ApplicationScoped
public class DeadlineRepository extends SqlRepository {

    private static final String COLUMNS = """
            d.deadline_id, d.process_id, d.bucket, d.kind, d.bucket_end, d.due_at, d.state, d.eta,
              d.blocker_process_id, d.blocker_reason, d.waive_reason, d.run_started_at, d.decided_at""";
    private static final String ROW = "SELECT " + COLUMNS + ", CAST(NULL AS text) AS previous FROM deadline_instance d";
    private static final String OPEN = "('SET', 'AT_RISK')";
    /** A list's condition on applications, as the run list's: processes of one of {@code :apps}. */
    private static final String OF_APPLICATIONS = "d.process_id IN (SELECT p.process_id FROM process_definition p"
            + " WHERE p.application_id = ANY(CAST(string_to_array(CAST(:apps AS text), ',') AS bigint[])))";

    /** A deadline to create: a bucket's deadline of one kind, due at {@code dueAt} (null: when its run begins). */
    public record NewDeadline(long processId, String bucket, DeadlineKind kind, Instant bucketEnd, Instant dueAt) {
    }

    /**
     * New deadlines in SET, in one statement; those whose bucket already has one of their kind are left as they are.
     * Answers the created ones by process, bucket end and kind (the order their SET events go out in).
     */
    public Uni<List<Deadline>> insertAll(List<NewDeadline> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("""
                INSERT INTO deadline_instance AS d (process_id, bucket, kind, bucket_end, due_at)
                SELECT n.process_id, n.bucket, n.kind, n.bucket_end, n.due_at
                FROM unnest(CAST(:p AS bigint[]), CAST(:b AS text[]), CAST(:k AS text[]),
                            CAST(CAST(:end AS text[]) AS timestamptz[]), CAST(CAST(:due AS text[]) AS timestamptz[]))
                       AS n(process_id, bucket, kind, bucket_end, due_at)
                ON CONFLICT (process_id, bucket, kind) DO NOTHING
                RETURNING\s""" + COLUMNS + ", CAST(NULL AS text) AS previous",
                Params.of("p", rows.stream().map(NewDeadline::processId).toArray(Long[]::new))
                        .and("b", rows.stream().map(NewDeadline::bucket).toArray(String[]::new))
                        .and("k", rows.stream().map(n -> n.kind().name()).toArray(String[]::new))
                        // instants travel as ISO text: the driver binds no array of timestamps from Hibernate's
                        .and("end", rows.stream().map(n -> n.bucketEnd().toString()).toArray(String[]::new))
                        .and("due", rows.stream().map(n -> n.dueAt() == null ? null : n.dueAt().toString())
                                .toArray(String[]::new)),
                DeadlineRepository::row)
                .map(created -> created.stream().sorted(Comparator.comparingLong(Deadline::processId)
                        .thenComparing(Deadline::bucketEnd).thenComparing(Deadline::kind)).toList());
    }

    /**
     * MISSED for up to {@code limit} open deadlines due by {@code now}, the oldest first, locked with SKIP LOCKED so
     * that replicas share the work.
     */
    public Uni<List<Deadline>> fireDue(OffsetDateTime now, int limit) {
        return list("""
                WITH due AS (SELECT deadline_id, state AS previous FROM deadline_instance
                             WHERE state IN %s AND due_at <= :now ORDER BY due_at LIMIT :n FOR UPDATE SKIP LOCKED)
                UPDATE deadline_instance d SET state = 'MISSED', decided_at = :now, updated_at = now()
                FROM due WHERE d.deadline_id = due.deadline_id
                RETURNING\s""".formatted(OPEN) + COLUMNS + ", due.previous",
                Params.of("now", now).and("n", limit), DeadlineRepository::row);
    }

    /**
     * Settles the open deadlines whose bucket's run did what they promised, as the runner's bucket ledger tells:
     * START when the bucket's run began (the ledger row left INIT, or was tried), FINISH and RUNTIME when the bucket
     * is COMPLETE. MET before the deadline fell, RECOVERED after it was MISSED. {@code dueOnly}: only those due by
     * {@code now} and not yet fired (through the due index: cheap enough to run between checks).
     */
    public Uni<List<Deadline>> settle(OffsetDateTime now, int limit, boolean dueOnly) {
        return list("""
                WITH done AS (SELECT d.deadline_id, d.state AS previous FROM deadline_instance d
                              JOIN bucket_status b ON b.process_id = d.process_id AND b.bucket = d.bucket
                              WHERE d.state IN %s
                                AND (b.status = 'COMPLETE'
                                     OR (d.kind = 'START' AND (b.status <> 'INIT' OR b.attempts > 0)))
                              ORDER BY d.deadline_id LIMIT :n FOR UPDATE OF d SKIP LOCKED)
                UPDATE deadline_instance d
                SET state = CASE WHEN done.previous = 'MISSED' THEN 'RECOVERED' ELSE 'MET' END,
                    decided_at = :now, updated_at = now()
                FROM done WHERE d.deadline_id = done.deadline_id
                RETURNING\s""".formatted(dueOnly ? OPEN + " AND d.due_at <= :now" : "('SET', 'AT_RISK', 'MISSED')")
                        + COLUMNS + ", done.previous",
                Params.of("now", now).and("n", limit), DeadlineRepository::row);
    }

    /**
     * Starts the clock of RUNTIME deadlines whose bucket's run has begun: due at {@code now} plus the parent's max
     * runtime. Not a transition: the deadline stays SET.
     */
    public Uni<Integer> startRuntimes(OffsetDateTime now) {
        return update("""
                UPDATE deadline_instance d SET run_started_at = :now,
                    due_at = CAST(:now AS timestamptz) + CAST(f.max_runtime AS interval), updated_at = now()
                FROM bucket_status b, deadline_definition f
                WHERE d.kind = 'RUNTIME' AND d.due_at IS NULL AND d.state = 'SET'
                  AND b.process_id = d.process_id AND b.bucket = d.bucket AND b.status = 'RUNNING'
                  AND f.process_id = d.process_id AND f.max_runtime IS NOT NULL""", Params.of("now", now));
    }

    /** The open FINISH deadlines not yet due, soonest first: what the estimate looks at. */
    public Uni<List<Deadline>> openFinishes(OffsetDateTime now, int limit) {
        return list(ROW + " WHERE d.state IN " + OPEN + " AND d.kind = 'FINISH' AND d.due_at > :now"
                + " ORDER BY d.due_at LIMIT :n", Params.of("now", now).and("n", limit), DeadlineRepository::row);
    }

    /** AT_RISK with the estimate, from SET only; empty when the row had moved on. */
    public Uni<Optional<Deadline>> atRisk(long deadlineId, OffsetDateTime eta, Long blocker, String why) {
        return first("""
                UPDATE deadline_instance d SET state = 'AT_RISK', eta = :eta, blocker_process_id = CAST(:blocker AS bigint),
                    blocker_reason = CAST(:why AS text), updated_at = now()
                WHERE d.deadline_id = :id AND d.state = 'SET'
                RETURNING\s""" + COLUMNS + ", CAST('SET' AS text) AS previous",
                Params.of("id", deadlineId).and("eta", eta).and("blocker", blocker).and("why", why),
                DeadlineRepository::row);
    }

    /** WAIVED with the operator's reason, from an open state; empty when the row was not open. */
    public Uni<Optional<Deadline>> waive(long deadlineId, String reason, OffsetDateTime now) {
        return waiveWhere("deadline_id = :id", Params.of("id", deadlineId), reason, now)
                .map(moved -> moved.stream().findFirst());
    }

    /** Every open deadline of a parent, WAIVED with {@code reason}: its promise was withdrawn. */
    public Uni<List<Deadline>> waiveAll(long processId, String reason, OffsetDateTime now) {
        return waiveWhere("process_id = :id", Params.of("id", processId), reason, now);
    }

    private Uni<List<Deadline>> waiveWhere(String condition, Params params, String reason, OffsetDateTime now) {
        return list("""
                WITH open AS (SELECT deadline_id, state AS previous FROM deadline_instance
                              WHERE %s AND state IN ('SET', 'AT_RISK', 'MISSED') FOR UPDATE)
                UPDATE deadline_instance d SET state = 'WAIVED', waive_reason = :reason, decided_at = :now,
                    updated_at = now()
                FROM open WHERE d.deadline_id = open.deadline_id
                RETURNING\s""".formatted(condition) + COLUMNS + ", open.previous",
                params.and("reason", reason).and("now", now), DeadlineRepository::row);
    }

    public Uni<Optional<Deadline>> find(long deadlineId) {
        return first(ROW + " WHERE d.deadline_id = :id", Params.of("id", deadlineId), DeadlineRepository::row);
    }

    /** A page of deadlines, soonest due first; {@code applications} empty: of every process. */
    public Uni<List<Deadline>> list(DeadlineState state, Long processId, Optional<List<Long>> applications,
                                    int limit, int offset) {
        Where where = filter(state, processId, applications);
        return list(ROW + where.sql() + " ORDER BY d.due_at NULLS LAST, d.deadline_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), DeadlineRepository::row);
    }

    public Uni<Long> count(DeadlineState state, Long processId, Optional<List<Long>> applications) {
        Where where = filter(state, processId, applications);
        return single("SELECT count(*) FROM deadline_instance d" + where.sql(), Long.class, where.params());
    }

    private static Where filter(DeadlineState state, Long processId, Optional<List<Long>> applications) {
        Where where = Where.all().eq("d.state", state == null ? null : state.name()).eq("d.process_id", processId);
        applications.ifPresent(ids -> where.and(OF_APPLICATIONS,
                Params.of("apps", ids.stream().map(String::valueOf).collect(Collectors.joining(",")))));
        return where;
    }

    /** How many deadlines are in each state. */
    public Uni<Map<DeadlineState, Long>> countByState() {
        return list("SELECT state, count(*) AS n FROM deadline_instance GROUP BY state", Params.none(), r -> r)
                .map(rows -> rows.stream().collect(Collectors.toMap(
                        r -> DeadlineState.valueOf(r.getString("state")), r -> r.getLong("n"))));
    }

    /**
     * The soonest due time of an open deadline, through the due index; empty when none has one (no deadline, or only
     * RUNTIME deadlines whose run has not begun).
     */
    public Uni<Optional<OffsetDateTime>> nextDue() {
        return first("SELECT due_at FROM deadline_instance WHERE state IN " + OPEN + " AND due_at IS NOT NULL"
                + " ORDER BY due_at LIMIT 1", Params.none(), r -> r.getTime("due_at"));
    }

    /** The oldest due time of an open deadline that is due by {@code now}: how far the checker lags. */
    public Uni<Optional<OffsetDateTime>> oldestUnfired(OffsetDateTime now) {
        return first("SELECT due_at FROM deadline_instance WHERE state IN " + OPEN + " AND due_at <= :now"
                + " ORDER BY due_at LIMIT 1", Params.of("now", now), r -> r.getTime("due_at"));
    }

    /**
     * The bucket's chain: the parent and, through its live steps' enqueuing processes, every upstream parent (ten
     * levels at most), each at its shortest distance, with whether it completed the bucket, how long its run of the
     * bucket has been running, and the median of its last 20 successful runs.
     */
    public Uni<List<CriticalPath.Link>> chain(long processId, String bucket) {
        return list("""
                WITH RECURSIVE chain(process_id, depth) AS (
                    SELECT CAST(:p AS bigint), 0
                    UNION
                    SELECT up.id, c.depth + 1 FROM chain c
                    JOIN process_definition s ON s.parent_process_id = c.process_id AND NOT s.deleted
                    CROSS JOIN LATERAL unnest(s.enqueuing_process_ids) AS up(id)
                    WHERE c.depth < 10)
                SELECT c.process_id, min(c.depth) AS depth, bool_or(b.status = 'COMPLETE') AS finished,
                    (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.end_ts - r.start_ts))
                     FROM (SELECT start_ts, end_ts FROM instance_exec WHERE process_id = c.process_id
                             AND exec_state = 3 AND parent_instance_exec_id IS NULL
                           ORDER BY instance_exec_id DESC LIMIT 20) r) AS typical_seconds,
                    (SELECT extract(epoch FROM now() - i.start_ts) FROM instance_exec i
                     WHERE i.instance_exec_id = max(b.instance_exec_id) AND i.exec_state = 2) AS elapsed_seconds
                FROM chain c LEFT JOIN bucket_status b ON b.process_id = c.process_id AND b.bucket = :b
                GROUP BY c.process_id""", Params.of("p", processId).and("b", bucket), r -> new CriticalPath.Link(
                r.getLong("process_id"), r.getInt("depth"), Boolean.TRUE.equals(r.getBooleanOrNull("finished")),
                seconds(r.get("typical_seconds")), seconds(r.get("elapsed_seconds"))));
    }

    private static java.time.Duration seconds(Object value) {
        return value == null ? null : java.time.Duration.ofMillis(Math.round(((Number) value).doubleValue() * 1000));
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static Deadline row(Row r) {
        String previous = r.getString("previous");
        return new Deadline(r.getLong("deadline_id"), r.getLong("process_id"), r.getString("bucket"),
                DeadlineKind.valueOf(r.getString("kind")), r.getTime("bucket_end"), r.getTime("due_at"),
                DeadlineState.valueOf(r.getString("state")), r.getTime("eta"), r.getLongOrNull("blocker_process_id"),
                r.getString("blocker_reason"), r.getString("waive_reason"), r.getTime("run_started_at"),
                r.getTime("decided_at"), previous == null ? null : DeadlineState.valueOf(previous));
    }
}
