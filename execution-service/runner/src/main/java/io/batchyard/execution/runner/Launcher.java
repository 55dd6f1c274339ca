package io.batchyard.execution.runner;

import io.batchyard.persistence.Blocking;
import io.batchyard.execution.clock.ServiceClock;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One launcher cycle of a parent: plan, claim (lease + buckets RUNNING, one transaction), run, release. Two runners
 * may cycle the same parent at once; the lease's primary key lets exactly one of them claim it. A cycle blocks while
 * its commands run: it runs on the runner's own threads and waits there for {@link RunnerService}'s transactions.
 */
@ApplicationScoped
public class Launcher {

    private static final Logger LOG = Logger.getLogger(Launcher.class);

    /** A claimed run, ready to execute. */
    public record Claimed(RunnerJob job, List<String> buckets) {
    }

    /** What a cycle did: a claim (maybe already run) or the plan's reasons for doing nothing. */
    public record Cycle(Planner.Plan plan, Optional<Claimed> claimed, Optional<WorkflowExecution.Outcome> outcome) {
    }

    private final RunnerService service;
    private final WorkflowExecution execution;
    private final RunnerConfig config;
    private final RunnerDrain drain;
    private final ServiceClock clock;
    /** The runs this runner executes now, by parent, with the runner name that holds each lease. */
    private final Map<Long, String> executing = new ConcurrentHashMap<>();

    public Launcher(RunnerService service, WorkflowExecution execution, RunnerConfig config, RunnerDrain drain,
                    ServiceClock clock) {
        this.service = service;
        this.execution = execution;
        this.config = config;
        this.drain = drain;
        this.clock = clock;
    }

    private String owner;
    private volatile ScheduledExecutorService heartbeats;

    @PostConstruct
    void init() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "runner";
        }
        owner = config.owner().orElse(host + "-" + UUID.randomUUID().toString().substring(0, 8));
        heartbeats = newHeartbeats();
    }

    private static ScheduledExecutorService newHeartbeats() {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "batchyard-runner-lease");
            t.setDaemon(true);
            return t;
        });
    }

    @PreDestroy
    void close() {
        heartbeats.shutdownNow();
    }

    /** After a drain that did not end the process: lease heartbeats work again. */
    public void resume() {
        if (heartbeats.isShutdown()) {
            heartbeats = newHeartbeats();
        }
    }

    public String owner() {
        return owner;
    }

    /** The service clock's time in the runner's zone: the bucket period a date-pattern job works on. */
    public LocalDateTime now() {
        return clock.localNow(ZoneId.of(config.timeZone()));
    }

    /** Plans and claims as {@code runner}; the claim commits with the plan's INIT rows. */
    public Cycle claim(long processId, LocalDateTime now, String runner) {
        return Blocking.await(() -> service.claim(processId, now, runner));
    }

    /** Runs a claimed run to its end, keeping the lease alive meanwhile, and releases it. */
    public WorkflowExecution.Outcome execute(Claimed claimed, String runner) {
        long pid = claimed.job().processId();
        long every = Math.max(1, config.lease().toMillis() / 3);
        ScheduledFuture<?> heartbeat = heartbeats.scheduleAtFixedRate(() -> {
            try {
                if (!Blocking.await(() -> service.refreshLease(pid, runner))) {
                    LOG.warnf("runner %s lost its lease on process %d", runner, pid);
                }
            } catch (RuntimeException e) {
                LOG.warnf(e, "lease refresh of process %d failed", pid);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        executing.put(pid, runner);
        try {
            return execution.run(claimed.job(), claimed.buckets(), "runner:" + runner);
        } finally {
            heartbeat.cancel(false);
            executing.remove(pid);
            if (!drain.abandoned()) {
                Blocking.await(() -> service.releaseLease(pid, runner));
            }
        }
    }

    /**
     * Gives every run in progress up to another runner (the drain's grace period is over): no lease is refreshed any
     * more, each ends now, and the steps' processes are stopped, so that the replica which claims next finds a dead
     * runner's run, terminates it and resumes it, with nothing of this runner still running beside it.
     */
    public void abandon() {
        drain.abandon();
        heartbeats.shutdownNow();
        executing.forEach((pid, runner) -> {
            try {
                Blocking.await(() -> service.expireLease(pid, runner));
                LOG.warnf("runner %s left the run of process %d to another runner", runner, pid);
            } catch (RuntimeException e) {
                // its lease then expires on its own, a little later
                LOG.warnf(e, "could not end the lease of process %d", pid);
            }
        });
        OsCommand.stopAll();
    }

    /** A whole cycle in the calling thread (the scheduler's workers, tests, the CLI). */
    public Cycle runOnce(long processId, LocalDateTime now) {
        return runOnce(processId, now, owner);
    }

    public Cycle runOnce(long processId, LocalDateTime now, String runner) {
        Cycle cycle = claim(processId, now, runner);
        if (cycle.claimed().isEmpty()) {
            return cycle;
        }
        return new Cycle(cycle.plan(), cycle.claimed(), Optional.of(execute(cycle.claimed().get(), runner)));
    }
}
