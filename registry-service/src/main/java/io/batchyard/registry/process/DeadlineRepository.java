package io.batchyard.registry.process;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** The SQL of {@code process_deadline}; joins the caller's session or transaction. */
@ApplicationScoped
public class DeadlineRepository extends SqlRepository {

    private static final String COLUMNS = "process_id, grain, cron, zone, start_by, finish_by, max_runtime";

    public Uni<Optional<Deadlines>> find(long processId) {
        return first("SELECT " + COLUMNS + " FROM process_deadline WHERE process_id = :p", Params.of("p", processId),
                DeadlineRepository::row);
    }

    public Uni<Void> upsert(Deadlines d) {
        return update("""
                INSERT INTO process_deadline (process_id, grain, cron, zone, start_by, finish_by, max_runtime)
                VALUES (:p, :grain, CAST(:cron AS text), :zone, CAST(:start AS text), CAST(:finish AS text),
                        CAST(:runtime AS text))
                ON CONFLICT (process_id) DO UPDATE SET grain = EXCLUDED.grain, cron = EXCLUDED.cron,
                    zone = EXCLUDED.zone, start_by = EXCLUDED.start_by, finish_by = EXCLUDED.finish_by,
                    max_runtime = EXCLUDED.max_runtime""",
                Params.of("p", d.processId()).and("grain", d.grain()).and("cron", d.cron()).and("zone", d.zone())
                        .and("start", d.startBy()).and("finish", d.finishBy()).and("runtime", d.maxRuntime()))
                .replaceWithVoid();
    }

    /** True when there were deadlines to remove. */
    public Uni<Boolean> delete(long processId) {
        return update("DELETE FROM process_deadline WHERE process_id = :p", Params.of("p", processId))
                .map(n -> n > 0);
    }

    private static Deadlines row(Row r) {
        return new Deadlines(r.getLong("process_id"), r.getString("grain"), r.getString("cron"), r.getString("zone"),
                r.getString("start_by"), r.getString("finish_by"), r.getString("max_runtime"));
    }
}
