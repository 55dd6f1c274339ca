package io.batchyard.execution.schedule;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.longOrNull;
import static io.batchyard.persistence.Columns.time;

import io.batchyard.execution.SqlRepository;
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
        return rows("""
                SELECT s.process_id, s.cron, s.time_zone, s.last_fired_at FROM runner_schedule s
                JOIN runner_job j ON j.process_id = s.process_id WHERE j.enabled
                ORDER BY s.process_id FOR UPDATE OF s SKIP LOCKED""", none(),
                r -> new Due(longOrNull(r[0]), (String) r[1], (String) r[2], time(r[3])));
    }

    public Uni<Void> fired(long processId, OffsetDateTime at) {
        return update("UPDATE runner_schedule SET last_fired_at = :t WHERE process_id = :p",
                params("t", at).and("p", processId)).replaceWithVoid();
    }
}
