package io.batchyard.execution.deadline;

import io.batchyard.execution.bucket.BucketGrain;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The SQL of {@code deadline_definition}; joins the caller's session or transaction. */
@ApplicationScoped
public class DeadlineDefinitionRepository extends SqlRepository {

    private static final String COLUMNS = """
            process_id, grain, cron, zone, start_by, finish_by, max_runtime, effective_from, materialised_until""";

    /**
     * Records the announced deadlines. A new definition takes effect at {@code now} (the service clock): its first
     * expected bucket is the one in progress. A change keeps where materialisation got to; an event older than the
     * row's changes nothing.
     */
    public Uni<Integer> upsert(long processId, DeadlineSpec spec, OffsetDateTime now, Instant occurredAt) {
        return update("""
                INSERT INTO deadline_definition (process_id, grain, cron, zone, start_by, finish_by, max_runtime,
                    effective_from, materialised_until, source_occurred_at)
                VALUES (:p, :grain, CAST(:cron AS text), :zone, CAST(:start AS text), CAST(:finish AS text),
                    CAST(:runtime AS text), :now, :now, :at)
                ON CONFLICT (process_id) DO UPDATE SET grain = EXCLUDED.grain, cron = EXCLUDED.cron,
                    zone = EXCLUDED.zone, start_by = EXCLUDED.start_by, finish_by = EXCLUDED.finish_by,
                    max_runtime = EXCLUDED.max_runtime, source_occurred_at = EXCLUDED.source_occurred_at
                WHERE deadline_definition.source_occurred_at <= EXCLUDED.source_occurred_at""",
                Params.of("p", processId).and("grain", spec.grain().text()).and("cron", spec.cron())
                        .and("zone", spec.zone().getId()).and("start", text(spec.startBy()))
                        .and("finish", text(spec.finishBy())).and("runtime", text(spec.maxRuntime()))
                        .and("now", now).and("at", occurredAt.atOffset(ZoneOffset.UTC)));
    }

    /** Forgets a parent's deadlines unless a newer announcement set them; true when there were some. */
    public Uni<Boolean> remove(long processId, Instant occurredAt) {
        return update("DELETE FROM deadline_definition WHERE process_id = :p AND source_occurred_at <= :at",
                Params.of("p", processId).and("at", occurredAt.atOffset(ZoneOffset.UTC))).map(n -> n > 0);
    }

    public Uni<Optional<DeadlineDefinition>> find(long processId) {
        return first("SELECT " + COLUMNS + " FROM deadline_definition WHERE process_id = :p", Params.of("p", processId),
                DeadlineDefinitionRepository::row);
    }

    /**
     * Up to {@code limit} definitions whose last materialised bucket has ended by {@code now}, so the next one is
     * expected; locked, skipping those another replica is materialising.
     */
    public Uni<List<DeadlineDefinition>> lockBehind(OffsetDateTime now, int limit) {
        return list("SELECT " + COLUMNS + " FROM deadline_definition WHERE materialised_until <= :now"
                        + " ORDER BY materialised_until LIMIT :n FOR UPDATE SKIP LOCKED",
                Params.of("now", now).and("n", limit), DeadlineDefinitionRepository::row);
    }

    /** How far each of these parents' deadlines are materialised now, in one statement. */
    public Uni<Integer> advance(Map<Long, Instant> untilByProcess) {
        if (untilByProcess.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<Long> pids = List.copyOf(untilByProcess.keySet());
        return update("UPDATE deadline_definition d SET materialised_until = u.until"
                        + " FROM unnest(CAST(:p AS bigint[]), CAST(CAST(:u AS text[]) AS timestamptz[])) AS u(process_id, until)"
                        + " WHERE d.process_id = u.process_id",
                Params.of("p", pids.toArray(Long[]::new)).and("u", pids.stream()
                        .map(p -> untilByProcess.get(p).toString()).toArray(String[]::new)));
    }

    private static String text(Duration d) {
        return d == null ? null : d.toString();
    }

    private static Duration duration(String iso) {
        return iso == null ? null : Duration.parse(iso);
    }

    private static DeadlineDefinition row(Row r) {
        DeadlineSpec spec = new DeadlineSpec(BucketGrain.of(r.getString("grain")).orElseThrow(), r.getString("cron"),
                ZoneId.of(r.getString("zone")), duration(r.getString("start_by")), duration(r.getString("finish_by")),
                duration(r.getString("max_runtime")));
        return new DeadlineDefinition(r.getLong("process_id"), spec, r.getTime("effective_from"),
                r.getTime("materialised_until"));
    }
}
