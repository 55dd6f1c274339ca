package io.batchyard.execution.schedule;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;

/** runner_schedule as the scheduler sees it: the enabled schedules and when each last fired. */
@ApplicationScoped
public class ScheduleRepository extends SqlRepository {

    /** A schedule of an enabled job, locked for this transaction. */
    public record Due(long processId, String cron, String zone, OffsetDateTime last) {
    }

    /** SKIP LOCKED: two schedulers tick at once without firing one schedule twice. */
    public Uni<List<Due>> lockEnabled() {
        return list("""
                SELECT s.process_id, s.cron, s.time_zone, s.last_fired_at FROM runner_schedule s
                JOIN runner_job j ON j.process_id = s.process_id WHERE j.enabled
                ORDER BY s.process_id FOR UPDATE OF s SKIP LOCKED""", Params.none(),
                r -> new Due(r.getLong("process_id"), r.getString("cron"), r.getString("time_zone"),
                        r.getTime("last_fired_at")));
    }

    public Uni<Void> fired(long processId, OffsetDateTime at) {
        return update("UPDATE runner_schedule SET last_fired_at = :t WHERE process_id = :p",
                Params.of("t", at).and("p", processId)).replaceWithVoid();
    }
}
