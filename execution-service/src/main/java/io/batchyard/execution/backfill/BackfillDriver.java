package io.batchyard.execution.backfill;

import io.batchyard.api.ApiException;
import io.batchyard.execution.runner.RunnerDrain;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.batchyard.persistence.InOrder;
import io.batchyard.schemas.backfill.ReenqueueRequest;
import io.batchyard.schemas.backfill.Reenqueued;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Drives every live backfill, one step each per tick ({@code batchyard.backfills.tick}, 2 s): {@link BackfillRunService}
 * decides in a transaction what to start, then each entry to start has its batches offered again by queue-service
 * and its bucket handed to the runner, which is asked for the run at once.
 *
 * <p>What an entry's run consumes: a root re-reads the batches its replaced run consumed (restated in place); an
 * entry downstream consumes, for each batch it consumed from an entry of the plan, that entry's re-run output instead,
 * and the other batches it consumed as they are. queue-service offers them to the job's steps as New rows that
 * supersede the archived consumption, and the run claims exactly those. An entry whose bucket never ran claims the
 * batches still waiting for it; one whose replaced run failed retries that run's batches (the ordinary claim); a source
 * job (no input batch) claims as it always does.
 *
 * <p>All state is in the database, so a restart of any service resumes where the last committed step left off; each
 * offer is idempotent per backfill, batch and step, so a step cut short is simply taken again.
 */
@ApplicationScoped
public class BackfillDriver {

    private static final Logger LOG = Logger.getLogger(BackfillDriver.class);

    private final BackfillRunService execution;
    private final ImpactClient queue;
    private final RunnerScheduler scheduler;
    private final RunnerDrain drain;

    public BackfillDriver(BackfillRunService execution, ImpactClient queue, RunnerScheduler scheduler,
                          RunnerDrain drain) {
        this.execution = execution;
        this.queue = queue;
        this.scheduler = scheduler;
        this.drain = drain;
    }

    @Scheduled(every = "${batchyard.backfills.tick:PT2S}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduledTick() {
        // a replica that is shutting down leaves the backfills to the others
        if (drain.draining()) {
            return Uni.createFrom().voidItem();
        }
        return tick().onFailure().invoke(e -> LOG.warnf("backfill tick failed, the next one repeats it: %s",
                e.getMessage())).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** One step of every live backfill; answers how many entries were handed to the runner. */
    public Uni<Integer> tick() {
        return execution.live().chain(ids -> InOrder.map(ids, this::drive))
                .map(started -> started.stream().mapToInt(Integer::intValue).sum());
    }

    private Uni<Integer> drive(UUID backfillId) {
        return execution.step(backfillId)
                .call(step -> InOrder.each(step.map(BackfillRunService.Step::unattended).orElse(List.of()).stream()
                        .filter(distinctProcess()).toList(), this::launch))
                .chain(step -> step.isEmpty() ? Uni.createFrom().item(0)
                        : InOrder.map(step.get().start(), e -> start(e, step.get().entries()))
                        .map(started -> (int) started.stream().filter(Boolean::booleanValue).count()))
                .onFailure().recoverWithUni(e -> {
                    LOG.warnf("backfill %s: step failed, the next tick repeats it: %s", backfillId, e.getMessage());
                    return Uni.createFrom().item(0);
                });
    }

    private Uni<Boolean> start(EntryRun e, List<EntryRun> all) {
        Map<Integer, EntryRun> byNo = all.stream().collect(Collectors.toMap(EntryRun::entryNo, Function.identity()));
        List<Long> inputs = e.inputBatchIds().stream().filter(id -> id > 0).toList();
        Uni<Optional<List<Long>>> sources;
        if ("FAILED".equals(e.replacedStatus()) || inputs.isEmpty()) {
            sources = Uni.createFrom().item(Optional.empty());
        } else if ("MISSING".equals(e.replacedStatus())) {
            sources = Uni.createFrom().item(Optional.of(inputs));
        } else {
            sources = offer(e, inputs, byNo).map(Optional::of);
        }
        return sources.chain(named -> execution.handOver(e, named.orElse(null)))
                .call(handed -> handed ? launch(e) : Uni.createFrom().voidItem())
                // an entry it consumes from succeeded without an output to offer: it cannot be re-run on it
                .onFailure(IllegalStateException.class).recoverWithUni(broken -> execution.failToStart(e,
                        broken.getMessage()).replaceWith(false))
                .onFailure(ApiException.class).recoverWithUni(refused -> {
                    ApiException a = (ApiException) refused;
                    if (a.status() >= 500) {
                        LOG.warnf("backfill %s entry %d: not started yet, queue-service did not answer: %s",
                                e.backfillId(), e.entryNo(), a.getMessage());
                        return Uni.createFrom().item(false);
                    }
                    return execution.failToStart(e, "its batches could not be offered again: " + a.getMessage())
                            .replaceWith(false);
                });
    }

    /**
     * Each input batch offered again to the job's steps: the re-run output of the entry that produced it, or the batch
     * itself when no entry of the plan did. Answers the batches the run claims.
     */
    private Uni<List<Long>> offer(EntryRun e, List<Long> inputs, Map<Integer, EntryRun> byNo) {
        List<Long> offered = new ArrayList<>();
        return InOrder.each(inputs, batch -> {
            Optional<PlanEntry.Consumed> producer = e.consumes().stream().filter(c -> c.batchId() == batch).findFirst();
            Long remade = producer.map(c -> byNo.get(c.entryNo())).map(EntryRun::targetBatchId).orElse(null);
            if (producer.isPresent() && remade == null) {
                return Uni.createFrom().failure(new IllegalStateException("entry " + producer.get().entryNo()
                        + " has no re-run output to offer in place of batch " + batch));
            }
            return queue.reenqueue(new ReenqueueRequest(e.backfillId(), batch, e.processId(), remade))
                    .invoke((Reenqueued made) -> offered.add(remade == null ? batch : remade));
        }).replaceWith(offered);
    }

    /** Keeps the first entry of each job: the runner is asked once per job. */
    private static Predicate<EntryRun> distinctProcess() {
        Set<Long> seen = new HashSet<>();
        return e -> seen.add(e.processId());
    }

    /** Asks the runner for the run now rather than at its next tick; a refusal leaves it to that tick. */
    private Uni<Void> launch(EntryRun e) {
        return Uni.createFrom().deferred(() -> scheduler.launchNow(e.processId()))
                .onFailure().invoke(failure -> LOG.infof("backfill %s entry %d: the runner takes process %d at its"
                        + " next tick (%s)", e.backfillId(), e.entryNo(), e.processId(), failure.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
