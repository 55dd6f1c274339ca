package io.batchyard.execution.trigger;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.persistence.Blocking;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunEnded;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Data-aware triggering: a batch enqueued for a step of an on-batch parent starts the parent's run on the runner, the
 * same way {@code POST /runner/processes/{pid}/launch} does. A run in progress queues the trigger, and the run's end
 * starts the next one. Every other event of the topic (BatchesArchived, ...) is acknowledged and ignored.
 */
@ApplicationScoped
public class TriggerConsumer {

    private static final Logger LOG = Logger.getLogger(TriggerConsumer.class);
    /** Tries of the request to the runner after a committed START decision (the first one included). */
    static final int START_ATTEMPTS = 4;
    private static final Duration START_BACKOFF = Duration.ofMillis(200);

    private final TriggerService triggers;
    private final RunnerScheduler scheduler;
    private final Launcher launcher;
    private final RecordProcessor records;
    private final TriggerMeters meters;
    private final ExternalLauncher hook;

    public TriggerConsumer(TriggerService triggers, RunnerScheduler scheduler, Launcher launcher,
                           RecordProcessor records, TriggerMeters meters, ExternalLauncher hook) {
        this.hook = hook;
        this.triggers = triggers;
        this.scheduler = scheduler;
        this.launcher = launcher;
        this.records = records;
        this.meters = meters;
    }

    @Incoming("batches")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(TriggerService.CONSUMER, record, this::handle);
    }

    private Uni<Void> handle(SpecificRecord event) {
        if (!(event instanceof BatchEnqueued enqueued)) {
            return Uni.createFrom().voidItem();
        }
        return triggers.onBatch(enqueued, launcher.now()).chain(decided -> decided.map(decision -> {
            if (decision.outcome() == TriggerService.Outcome.LAUNCH) {
                return launch(decision.launch());
            }
            if (decision.outcome() != TriggerService.Outcome.START) {
                // Every batch enqueued for a parent that is not triggered by batches comes here: not news.
                LOG.logf(decision.optedOut() ? Logger.Level.DEBUG : Logger.Level.INFO,
                        "trigger of parent %s by batch %d: %s (%s)", decision.parentId(), enqueued.getSourceBatchId(),
                        decision.outcome().tag(), decision.why());
                meters.count(decision.outcome());
                return Uni.createFrom().voidItem();
            }
            return start(decision.parentId());
        }).orElse(Uni.createFrom().voidItem()));
    }

    /**
     * Asks the runner for a cycle of the parent. Another runner may have claimed it since the decision: the trigger
     * then waits for that run's end. The decision is committed already (a redelivery would be a duplicate), so a
     * failing request is retried here, {@link #START_ATTEMPTS} times in all with back-off; should it still fail, the
     * trigger is counted as failed and left pending: its INIT bucket stays for the runner's tick, and the parent's
     * next run end starts it too.
     */
    private Uni<Void> start(long parentId) {
        return Uni.createFrom().deferred(() -> scheduler.launchNow(parentId))
                .onFailure().retry().withBackOff(START_BACKOFF, START_BACKOFF.multipliedBy(8))
                .atMost(START_ATTEMPTS - 1)
                .chain(cycle -> {
                    if (cycle.claimed().isPresent()) {
                        meters.count(TriggerService.Outcome.START);
                        return Uni.createFrom().voidItem();
                    }
                    boolean running = cycle.plan().reasons().stream().anyMatch(r -> r.code().equals("ALREADY_RUNNING"));
                    meters.count(running ? TriggerService.Outcome.QUEUED : TriggerService.Outcome.IGNORED);
                    LOG.infof("trigger of parent %d started nothing: %s", parentId, cycle.plan().reasons());
                    return running ? triggers.markPending(parentId) : Uni.createFrom().voidItem();
                })
                .onFailure().recoverWithUni(e -> {
                    LOG.warnf(e, "trigger of parent %d: the runner could not be asked for its run after %d attempts; "
                            + "its bucket stays INIT for the runner's tick", parentId, START_ATTEMPTS);
                    meters.count(TriggerService.Outcome.FAILED);
                    return triggers.markPending(parentId).onFailure().recoverWithNull().replaceWithVoid();
                });
    }

    /**
     * Asks the launcher hook to start an Oozie or Airflow parent (once per trigger: the decision is committed, a
     * redelivery is a duplicate); the hook retries, and a launch that still failed is counted and shown by /why.
     */
    private Uni<Void> launch(LaunchRequest request) {
        return hook.launch(request).chain(failure -> {
            if (failure.isPresent()) {
                LOG.warnf("trigger of parent %d: the launcher hook failed: %s", request.processId(), failure.get());
            } else {
                LOG.infof("trigger of parent %d: launched through the %s launcher hook", request.processId(),
                        hook.kind());
            }
            meters.count(failure.isPresent() ? TriggerService.Outcome.FAILED : TriggerService.Outcome.LAUNCH);
            return triggers.launched(request.processId(), failure);
        });
    }

    /** The end of a run starts the trigger that waited for it (on the runner's thread that ran it). */
    void onRunEnded(@Observes RunEnded ended) {
        long parentId = ended.processId();
        if (Boolean.TRUE.equals(Blocking.await(() -> triggers.takePending(parentId)))) {
            Blocking.await(() -> start(parentId));
        }
    }
}
