package io.batchyard.execution.schedule;

import io.batchyard.api.CommonErrors;
import io.batchyard.persistence.Blocking;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.RunEnded;
import io.batchyard.execution.runner.RunnerConfig;
import io.batchyard.execution.runner.RunnerDrain;
import io.batchyard.execution.runner.RunnerService;
import io.batchyard.execution.runner.WorkflowExecution;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The DB-stored crontab: each tick fires the schedules due since their last fire (a bucket INIT row per fire,
 * COMPLETE rows untouched), then starts a launcher cycle for every enabled parent with work, each parent at most
 * once at a time in this runner (and, through the lease, across runners). The tick runs on a worker thread and
 * waits for the transactions it starts; launched cycles run on the runner's own threads.
 */
@ApplicationScoped
public class RunnerScheduler {

    private static final Logger LOG = Logger.getLogger(RunnerScheduler.class);

    private final Launcher launcher;
    private final RunnerService runner;
    private final ScheduleService schedules;
    private final RunnerConfig config;
    private final RunnerDrain drain;
    private final Event<RunEnded> ended;
    private final ServiceClock clock;

    private final Set<Long> inFlight = ConcurrentHashMap.newKeySet();
    private volatile ExecutorService workers;

    public RunnerScheduler(Launcher launcher, RunnerService runner, ScheduleService schedules, RunnerConfig config,
                           RunnerDrain drain, Event<RunEnded> ended, ServiceClock clock) {
        this.clock = clock;
        this.ended = ended;
        this.drain = drain;
        this.launcher = launcher;
        this.runner = runner;
        this.schedules = schedules;
        this.config = config;
    }

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
            tick();
        }
    }

    /** One tick at the service clock's now: what the periodic scheduler does, and what tests call after moving it. */
    public List<Long> tick() {
        return tick(clock.instant());
    }

    /** Fires due schedules and launches every parent with work; returns the parents launched. */
    public List<Long> tick(Instant now) {
        if (drain.draining()) {
            return List.of();
        }
        fireSchedules(now);
        List<Long> launched = new ArrayList<>();
        for (long pid : Blocking.await(runner::enabledWithWork)) {
            if (inFlight.add(pid)) {
                launched.add(pid);
                inBackground(pid, "launcher cycle", () -> launcher.runOnce(pid, launcher.now()).outcome());
            }
        }
        return launched;
    }

    /** Claims now (so the caller learns the buckets) and runs the claim in the background on a runner thread. */
    public Uni<Launcher.Cycle> launchNow(long processId) {
        if (drain.draining()) {
            return Uni.createFrom().failure(CommonErrors.UNAVAILABLE.exception(
                    "this runner is shutting down and starts nothing new; another replica will"));
        }
        return runner.claim(processId, launcher.now(), launcher.owner()).invoke(cycle -> cycle.claimed().ifPresent(claimed -> {
            inFlight.add(processId);
            inBackground(processId, "run", () -> Optional.of(launcher.execute(claimed, launcher.owner())));
        }));
    }

    /**
     * Runs {@code work} on a runner thread; the parent leaves {@code inFlight} however it ends. A run that could not
     * start yet (its buckets waiting again for a service InitJob needs) ends nothing: the tick, not its end, tries it
     * again, so an unavailable service is not asked in a loop.
     */
    private void inBackground(long processId, String what, Supplier<Optional<WorkflowExecution.Outcome>> work) {
        workers.submit(() -> {
            try {
                if (work.get().filter(outcome -> outcome.bucketState() == BucketStatus.State.INIT).isPresent()) {
                    return;
                }
            } catch (RunnerDrain.Abandoned e) {
                LOG.info(e.getMessage());
            } catch (RuntimeException e) {
                LOG.errorf(e, "%s of process %d failed", what, processId);
            } finally {
                inFlight.remove(processId);
            }
            // After inFlight: whoever listens (a trigger queued meanwhile) may start the parent's next run at once.
            try {
                ended.fire(new RunEnded(processId));
            } catch (RuntimeException e) {
                LOG.errorf(e, "after the %s of process %d", what, processId);
            }
        });
    }

    /** On shutdown (before the database clients close): the drain, within the configured grace period. */
    void onShutdown(@Observes ShutdownEvent event) {
        drain(config.drainGrace());
    }

    /**
     * Stops claiming, lets the runs in progress go on for up to {@code grace}, then gives whatever still runs to
     * another runner ({@link Launcher#abandon}). Answers whether every run ended within the grace period.
     */
    public boolean drain(Duration grace) {
        drain.startDraining();
        workers.shutdown();
        boolean ended;
        try {
            ended = workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = false;
        }
        if (!ended) {
            LOG.warnf("runs still in progress after the drain's %s: leaving them to another runner", grace);
            launcher.abandon();
        }
        return ended;
    }

    /** Takes the runner back into service after a drain that did not end the process (used by tests). */
    public void resume() {
        drain.resume();
        launcher.resume();
        if (workers.isShutdown()) {
            init();
        }
    }

    /** The schedules' part of a tick, at the service clock's now; returns the buckets added. */
    public int fireSchedules() {
        return fireSchedules(clock.instant());
    }

    /** Records a bucket for every fire of every schedule in (last fire, now]; returns the buckets added. */
    public int fireSchedules(Instant now) {
        return Blocking.await(() -> schedules.fire(now));
    }
}
