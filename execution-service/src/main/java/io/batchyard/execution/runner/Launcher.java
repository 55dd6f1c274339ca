package io.batchyard.execution.runner;

import io.batchyard.api.ApiException;
import io.batchyard.execution.bucket.BucketLedger;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.lifecycle.Lifecycle;
import io.batchyard.execution.lifecycle.Runs;
import io.batchyard.readmodel.ProcessDefinitions;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * One launcher cycle of a parent: plan, claim (lease + buckets RUNNING, one transaction), run, release. Two runners
 * may cycle the same parent at once; the lease's primary key lets exactly one of them claim it.
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

    @Inject
    Jdbi jdbi;

    @Inject
    Planner planner;

    @Inject
    RunnerJobs jobs;

    @Inject
    BucketLedger ledger;

    @Inject
    RunnerLeases leases;

    @Inject
    WorkflowExecution execution;

    @Inject
    Lifecycle lifecycle;

    @Inject
    Runs runs;

    @Inject
    ProcessDefinitions definitions;

    @Inject
    RunnerConfig config;

    private String owner;
    private ScheduledExecutorService heartbeats;

    @PostConstruct
    void init() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "runner";
        }
        owner = config.owner().orElse(host + "-" + UUID.randomUUID().toString().substring(0, 8));
        heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "batchyard-runner-lease");
            t.setDaemon(true);
            return t;
        });
    }

    @PreDestroy
    void close() {
        heartbeats.shutdownNow();
    }

    public String owner() {
        return owner;
    }

    public LocalDateTime now() {
        return LocalDateTime.now(ZoneId.of(config.timeZone()));
    }

    /** Plans and claims as {@code runner}; the claim commits with the plan's INIT rows. */
    public Cycle claim(long processId, LocalDateTime now, String runner) {
        return jdbi.inTransaction(tx -> {
            leases.reapExpired(tx, processId).ifPresent(dead -> recoverOrphan(tx, dead));
            Planner.Plan plan = planner.plan(tx, processId, now, true);
            if (!plan.runnable()) {
                return new Cycle(plan, Optional.empty(), Optional.empty());
            }
            if (!leases.claim(tx, processId, runner, plan.buckets(), config.lease())) {
                plan.reasons().add(new Planner.Reason("ALREADY_RUNNING", "another runner claimed process " + processId));
                return new Cycle(new Planner.Plan(processId, List.of(), plan.currentPeriod(), plan.reasons()),
                        Optional.empty(), Optional.empty());
            }
            int moved = ledger.move(tx, processId, plan.buckets(), State.INIT, State.RUNNING, null, null)
                    + ledger.move(tx, processId, plan.buckets(), State.FAILED, State.RUNNING, null, null);
            if (moved != plan.buckets().size()) {
                // The lease makes this unreachable unless rows were edited by hand; refuse rather than run twice.
                throw new IllegalStateException("buckets " + plan.buckets() + " of process " + processId
                        + " changed while being claimed");
            }
            RunnerJob job = jobs.find(tx, processId).orElseThrow();
            return new Cycle(plan, Optional.of(new Claimed(job, plan.buckets())), Optional.empty());
        });
    }

    /** Runs a claimed run to its end, keeping the lease alive meanwhile, and releases it. */
    public WorkflowExecution.Outcome execute(Claimed claimed, String runner) {
        long pid = claimed.job().processId();
        long every = Math.max(1, config.lease().toMillis() / 3);
        ScheduledFuture<?> heartbeat = heartbeats.scheduleAtFixedRate(() -> {
            try {
                if (!jdbi.inTransaction(tx -> leases.refresh(tx, pid, runner, config.lease()))) {
                    LOG.warnf("runner %s lost its lease on process %d", runner, pid);
                }
            } catch (RuntimeException e) {
                LOG.warnf(e, "lease refresh of process %d failed", pid);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        try {
            return execution.run(claimed.job(), claimed.buckets(), "runner:" + runner);
        } finally {
            heartbeat.cancel(false);
            jdbi.useTransaction(tx -> leases.release(tx, pid, runner));
        }
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

    /**
     * A runner died holding the parent: its buckets go back to INIT and its run is terminated, so this claim's
     * InitJob resumes from the last recoverable step instead of being refused as already running.
     */
    private void recoverOrphan(Handle tx, RunnerLeases.Lease dead) {
        LOG.warnf("taking over process %d from runner %s, whose lease expired (buckets %s)", dead.processId(),
                dead.owner(), dead.buckets());
        ledger.move(tx, dead.processId(), dead.buckets(), State.RUNNING, State.INIT, null,
                "runner " + dead.owner() + " lost its lease");
        definitions.tree(tx, dead.processId()).ifPresent(tree -> tree.steps().forEach(step -> {
            if (!runs.running(tx, step.processId()).isEmpty()) {
                lifecycle.termStep(tx, step.processId(), "runner:takeover");
            }
        }));
        if (!runs.running(tx, dead.processId()).isEmpty()) {
            try {
                lifecycle.termJob(tx, dead.processId(), "runner:takeover");
            } catch (ApiException e) {
                LOG.warnf("could not terminate the orphaned run of %d: %s", dead.processId(), e.getMessage());
            }
        }
    }
}
