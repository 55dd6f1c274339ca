package io.batchyard.execution.schedule;

import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunPolicyService;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/** Fires the DB-stored crontab: one transaction holds the due schedules, records their buckets and their last fire. */
@ApplicationScoped
public class ScheduleService {

    private static final Logger LOG = Logger.getLogger(ScheduleService.class);

    private final ScheduleRepository schedules;
    private final RunPolicyService jobs;
    private final BucketService ledger;
    private final Planner planner;

    public ScheduleService(ScheduleRepository schedules, RunPolicyService jobs, BucketService ledger,
                           Planner planner) {
        this.schedules = schedules;
        this.jobs = jobs;
        this.ledger = ledger;
        this.planner = planner;
    }

    /** Records a bucket for every fire of every schedule in (last fire, now]; returns the buckets added. */
    @WithTransaction
    public Uni<Integer> fire(Instant now) {
        // One after another through a Multi rather than a chain built in a loop: a chain of a thousand fires (a schedule
        // catching up after a long outage, or a clock moved far) nests a thousand subscriptions on one thread's stack.
        return schedules.lockEnabled().chain(due -> Multi.createFrom().iterable(due)
                .onItem().transformToUniAndConcatenate(d -> fire(d, now))
                .collect().with(Collectors.summingInt(Integer::intValue)));
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
        return jobs.job(d.processId()).map(job -> job.orElseThrow()).chain(job -> Multi.createFrom().iterable(fires)
                .onItem().transformToUniAndConcatenate(fire -> {
                    List<Planner.Reason> reasons = new ArrayList<>();
                    return planner.bucketAt(job, fire.toLocalDateTime(), reasons).chain(bucket -> {
                        if (bucket == null) {
                            LOG.warnf("schedule of process %d fired at %s but: %s", d.processId(), fire, reasons);
                            return Uni.createFrom().item(0);
                        }
                        return ledger.ensure(d.processId(), bucket).map(isNew -> isNew ? 1 : 0);
                    });
                })
                .collect().with(Collectors.summingInt(Integer::intValue)))
                .call(() -> schedules.fired(d.processId(), fires.get(fires.size() - 1).toOffsetDateTime()));
    }
}
