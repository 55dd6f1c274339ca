package io.batchyard.execution.trigger;

import io.batchyard.execution.schedule.RunnerScheduler;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * What happens after a trigger's decision committed: a due run of a stand-alone parent asks the runner for a cycle
 * (the same path as {@code POST /runner/processes/{pid}/launch}), an Oozie or Airflow parent's the launcher hook;
 * every other outcome is logged and counted. Starting is idempotent: the runner claims buckets under its lease and
 * marks the trigger runs it starts, so a second attempt finds them started, and a start that is lost leaves an INIT
 * bucket for the runner's tick.
 */
@ApplicationScoped
public class TriggerStarts {

    private static final Logger LOG = Logger.getLogger(TriggerStarts.class);
    /** Tries of the request to the runner after a committed START decision (the first one included). */
    static final int START_ATTEMPTS = 4;
    private static final Duration START_BACKOFF = Duration.ofMillis(200);

    private final TriggerService triggers;
    private final TriggerInputService inputs;
    private final RunnerScheduler scheduler;
    private final TriggerMeters meters;
    private final ExternalLauncher hook;

    public TriggerStarts(TriggerService triggers, TriggerInputService inputs, RunnerScheduler scheduler,
                         TriggerMeters meters, ExternalLauncher hook) {
        this.triggers = triggers;
        this.inputs = inputs;
        this.scheduler = scheduler;
        this.meters = meters;
        this.hook = hook;
    }

    /** Carries out a committed decision. */
    public Uni<Void> after(TriggerDecision decision) {
        if (decision.outcome() == TriggerDecision.Outcome.LAUNCH) {
            return launch(decision);
        }
        if (decision.outcome() != TriggerDecision.Outcome.START) {
            // Every batch enqueued for a parent that is not triggered by batches comes here: not news.
            LOG.logf(decision.optedOut() ? Logger.Level.DEBUG : Logger.Level.INFO, "trigger of parent %s: %s (%s)",
                    decision.parentId(), decision.outcome().tag(), decision.why());
            meters.count(decision.outcome());
            return Uni.createFrom().voidItem();
        }
        return start(decision.parentId());
    }

    /**
     * Asks the runner for a cycle of the parent. Another runner may have claimed it since the decision: the trigger
     * then waits for that run's end. The decision is committed already (a redelivery would be a duplicate), so a
     * failing request is retried here, {@link #START_ATTEMPTS} times in all with back-off; should it still fail, the
     * trigger is counted as failed and left pending: its INIT bucket stays for the runner's tick, and the parent's
     * next run end starts it too.
     */
    public Uni<Void> start(long parentId) {
        return Uni.createFrom().deferred(() -> scheduler.launchNow(parentId))
                .onFailure().retry().withBackOff(START_BACKOFF, START_BACKOFF.multipliedBy(8))
                .atMost(START_ATTEMPTS - 1)
                .chain(cycle -> {
                    if (cycle.claimed().isPresent()) {
                        meters.count(TriggerDecision.Outcome.START);
                        return Uni.createFrom().voidItem();
                    }
                    boolean running = cycle.plan().reasons().stream().anyMatch(r -> r.code().equals("ALREADY_RUNNING"));
                    meters.count(running ? TriggerDecision.Outcome.QUEUED : TriggerDecision.Outcome.IGNORED);
                    LOG.infof("trigger of parent %d started nothing: %s", parentId, cycle.plan().reasons());
                    return running ? triggers.markPending(parentId) : Uni.createFrom().voidItem();
                })
                .onFailure().recoverWithUni(e -> {
                    LOG.warnf(e, "trigger of parent %d: the runner could not be asked for its run after %d attempts; "
                            + "its bucket stays INIT for the runner's tick", parentId, START_ATTEMPTS);
                    meters.count(TriggerDecision.Outcome.FAILED);
                    return triggers.markPending(parentId).onFailure().recoverWithNull().replaceWithVoid();
                });
    }

    /**
     * Asks the launcher hook to start an Oozie or Airflow parent (once per trigger run: the decision is committed, a
     * redelivery is a duplicate); the hook retries, and a launch that still failed is counted, shown by /why, and its
     * trigger run stays pending.
     */
    public Uni<Void> launch(TriggerDecision decision) {
        LaunchRequest request = decision.launch();
        return hook.launch(request).chain(failure -> {
            if (failure.isPresent()) {
                LOG.warnf("trigger of parent %d: the launcher hook failed: %s", request.processId(), failure.get());
            } else {
                LOG.infof("trigger of parent %d: bucket %s launched through the %s launcher hook", request.processId(),
                        request.bucket(), hook.kind());
            }
            meters.count(failure.isPresent() ? TriggerDecision.Outcome.FAILED : TriggerDecision.Outcome.LAUNCH);
            Uni<Void> started = failure.isPresent() ? Uni.createFrom().voidItem()
                    : inputs.launched(decision.runIds(), decision.eventAt());
            return started.chain(() -> triggers.launched(request.processId(), failure));
        });
    }
}
