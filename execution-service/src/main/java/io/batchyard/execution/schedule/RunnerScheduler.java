package io.batchyard.execution.schedule;

import io.batchyard.execution.bucket.BucketLedger;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunnerConfig;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.RunnerJobs;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.logging.Logger;
import org.jdbi.v3.core.Jdbi;

/**
 * The DB-stored crontab (spec B.3.12): each tick fires the schedules due since their last fire (a bucket INIT row per
 * fire, COMPLETE rows untouched), then starts a launcher cycle for every enabled parent with work, each parent at
 * most once at a time in this runner (and, through the lease, across runners).
 */
@ApplicationScoped
public class RunnerScheduler {

    private static final Logger LOG = Logger.getLogger(RunnerScheduler.class);

    @Inject
    Jdbi jdbi;

    @Inject
    Launcher launcher;

    @Inject
    RunnerJobs jobs;

    @Inject
    BucketLedger ledger;

    @Inject
    Planner planner;

    @Inject
    RunnerConfig config;

    private final Set<Long> inFlight = ConcurrentHashMap.newKeySet();
    private ExecutorService workers;

    @PostConstruct
    void init() {
        workers = Executors.newFixedThreadPool(config.parallelJobs(), r -> {
            Thread t = new Thread(r, "batchyard-runner");
            t.setDaemon(true);
            return t;
        });
    }

    @PreDestroy
    void close() {
        workers.shutdownNow();
    }

    @Scheduled(every = "${batchyard.runner.tick:5s}", delayed = "${batchyard.runner.tick:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (config.schedulerEnabled()) {
            tick(Instant.now());
        }
    }

    /** Fires due schedules and launches every parent with work; returns the parents launched. */
    public List<Long> tick(Instant now) {
        fireSchedules(now);
        List<Long> launched = new ArrayList<>();
        for (long pid : jdbi.withHandle(jobs::enabledWithWork)) {
            if (inFlight.add(pid)) {
                launched.add(pid);
                inBackground(pid, "launcher cycle", () -> launcher.runOnce(pid, launcher.now()));
            }
        }
        return launched;
    }

    /** Claims now in the caller's thread (so the caller learns the buckets) and runs the claim in the background. */
    public Launcher.Cycle launchNow(long processId) {
        Launcher.Cycle cycle = launcher.claim(processId, launcher.now(), launcher.owner());
        cycle.claimed().ifPresent(claimed -> {
            inFlight.add(processId);
            inBackground(processId, "run", () -> launcher.execute(claimed, launcher.owner()));
        });
        return cycle;
    }

    /** Runs {@code work} on a runner thread; the parent leaves {@code inFlight} however it ends. */
    private void inBackground(long processId, String what, Runnable work) {
        workers.submit(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.errorf(e, "%s of process %d failed", what, processId);
            } finally {
                inFlight.remove(processId);
            }
        });
    }

    /** Records a bucket for every fire of every schedule in (last fire, now]; returns the buckets added. */
    public int fireSchedules(Instant now) {
        record Due(long processId, String cron, String zone, OffsetDateTime last) {
        }
        return jdbi.inTransaction(tx -> {
            // SKIP LOCKED: two schedulers tick at once without firing one schedule twice.
            List<Due> due = tx.createQuery("""
                    SELECT s.process_id, s.cron, s.time_zone, s.last_fired_at FROM runner_schedule s
                    JOIN runner_job j ON j.process_id = s.process_id WHERE j.enabled
                    ORDER BY s.process_id FOR UPDATE OF s SKIP LOCKED""")
                    .map((rs, ctx) -> new Due(rs.getLong(1), rs.getString(2), rs.getString(3),
                            rs.getObject(4, OffsetDateTime.class))).list();
            int added = 0;
            for (Due d : due) {
                CronSchedule schedule;
                try {
                    schedule = CronSchedule.parse(d.cron(), d.zone());
                } catch (IllegalArgumentException e) {
                    LOG.warnf("schedule of process %d: %s", d.processId(), e.getMessage());
                    continue;
                }
                List<ZonedDateTime> fires = schedule.firesBetween(d.last().toInstant(), now);
                if (fires.isEmpty()) {
                    continue;
                }
                RunnerJob job = jobs.find(tx, d.processId()).orElseThrow();
                for (ZonedDateTime fire : fires) {
                    List<Planner.Reason> reasons = new ArrayList<>();
                    String bucket = planner.bucketAt(tx, job, fire.toLocalDateTime(), reasons);
                    if (bucket == null) {
                        LOG.warnf("schedule of process %d fired at %s but: %s", d.processId(), fire, reasons);
                    } else if (ledger.ensure(tx, d.processId(), bucket)) {
                        added++;
                    }
                }
                tx.createUpdate("UPDATE runner_schedule SET last_fired_at = :t WHERE process_id = :p")
                        .bind("t", fires.get(fires.size() - 1).toOffsetDateTime()).bind("p", d.processId()).execute();
            }
            return added;
        });
    }
}
