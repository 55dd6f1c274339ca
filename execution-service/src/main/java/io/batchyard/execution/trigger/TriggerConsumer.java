package io.batchyard.execution.trigger;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.eventing.persistence.Blocking;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunEnded;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
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

    private final TriggerService triggers;
    private final RunnerScheduler scheduler;
    private final Launcher launcher;
    private final RecordProcessor records;
    private final TriggerMeters meters;

    public TriggerConsumer(TriggerService triggers, RunnerScheduler scheduler, Launcher launcher,
                           RecordProcessor records, TriggerMeters meters) {
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
            if (decision.outcome() != TriggerService.Outcome.START) {
                LOG.infof("trigger of parent %s by batch %d: %s (%s)", decision.parentId(), enqueued.getSourceBatchId(),
                        decision.outcome().tag(), decision.why());
                meters.count(decision.outcome());
                return Uni.createFrom().voidItem();
            }
            return start(decision.parentId());
        }).orElse(Uni.createFrom().voidItem()));
    }

    /**
     * Asks the runner for a cycle of the parent. Another runner may have claimed it since the decision: the trigger
     * then waits for that run's end. Should this call fail, the trigger's INIT bucket stays for the runner's tick.
     */
    private Uni<Void> start(long parentId) {
        return scheduler.launchNow(parentId).chain(cycle -> {
            if (cycle.claimed().isPresent()) {
                meters.count(TriggerService.Outcome.START);
                return Uni.createFrom().voidItem();
            }
            boolean running = cycle.plan().reasons().stream().anyMatch(r -> r.code().equals("ALREADY_RUNNING"));
            meters.count(running ? TriggerService.Outcome.QUEUED : TriggerService.Outcome.IGNORED);
            LOG.infof("trigger of parent %d started nothing: %s", parentId, cycle.plan().reasons());
            return running ? triggers.markPending(parentId) : Uni.createFrom().voidItem();
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
