package io.batchyard.execution.schedule;

import io.batchyard.execution.bucket.BucketRepository;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunnerJobRepository;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/** Fires the DB-stored crontab: one transaction holds the due schedules, records their buckets and their last fire. */
@ApplicationScoped
public class ScheduleService {

    private static final Logger LOG = Logger.getLogger(ScheduleService.class);

    private final ScheduleRepository schedules;
    private final RunnerJobRepository jobs;
    private final BucketRepository ledger;
    private final Planner planner;

    public ScheduleService(ScheduleRepository schedules, RunnerJobRepository jobs, BucketRepository ledger,
                           Planner planner) {
        this.schedules = schedules;
        this.jobs = jobs;
        this.ledger = ledger;
        this.planner = planner;
    }

    /** Records a bucket for every fire of every schedule in (last fire, now]; returns the buckets added. */
    @WithTransaction
    public Uni<Integer> fire(Instant now) {
        return schedules.lockEnabled().chain(due -> {
            int[] added = {0};
            Uni<Void> each = Uni.createFrom().voidItem();
            for (ScheduleRepository.Due d : due) {
                each = each.chain(() -> fire(d, now)).invoke(n -> added[0] += n).replaceWithVoid();
            }
            return each.map(done -> added[0]);
        });
    }

    private Uni<Integer> fire(ScheduleRepository.Due d, Instant now) {
        CronSchedule schedule;
        try {
            schedule = CronSchedule.parse(d.cron(), d.zone());
        } catch (IllegalArgumentException e) {
            LOG.warnf("schedule of process %d: %s", d.processId(), e.getMessage());
            return Uni.createFrom().item(0);
        }
        List<ZonedDateTime> fires = schedule.firesBetween(d.last().toInstant(), now);
        if (fires.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        int[] added = {0};
        return jobs.find(d.processId()).map(job -> job.orElseThrow()).chain(job -> {
            Uni<Void> each = Uni.createFrom().voidItem();
            for (ZonedDateTime fire : fires) {
                List<Planner.Reason> reasons = new ArrayList<>();
                each = each.chain(() -> planner.bucketAt(job, fire.toLocalDateTime(), reasons)).chain(bucket -> {
                    if (bucket == null) {
                        LOG.warnf("schedule of process %d fired at %s but: %s", d.processId(), fire, reasons);
                        return Uni.createFrom().voidItem();
                    }
                    return ledger.ensure(d.processId(), bucket).invoke(isNew -> added[0] += isNew ? 1 : 0)
                            .replaceWithVoid();
                });
            }
            return each;
        }).chain(() -> schedules.fired(d.processId(), fires.get(fires.size() - 1).toOffsetDateTime()))
                .map(done -> added[0]);
    }
}
