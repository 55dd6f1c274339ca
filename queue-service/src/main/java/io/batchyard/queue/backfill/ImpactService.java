package io.batchyard.queue.backfill;

import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.queue.QueueError;
import io.batchyard.schemas.backfill.ReenqueueRequest;
import io.batchyard.schemas.backfill.Reenqueued;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Which runs a restatement makes wrong, read from the consumption queue and its archive: the roots' runs, then level
 * by level the runs that consumed a completed unit's output batch. One session, reads only, so asking changes nothing;
 * one statement per level, whatever the number of batches in it.
 */
@ApplicationScoped
public class ImpactService {

    private final ImpactRepository rows;

    public ImpactService(ImpactRepository rows) {
        this.rows = rows;
    }

    @WithSession
    public Uni<ImpactResult> impact(ImpactRequest request) {
        ImpactWalk walk = new ImpactWalk();
        Set<Long> roots = Set.copyOf(request.rootProcessIds());
        return rows.inputsOf(request.rootRunIds()).invoke(walk::rootRuns)
                .chain(() -> rows.consumersOf(request.restatedBatchIds()))
                .invoke(restated -> walk.restated(restated, roots))
                .chain(() -> request.cascade() ? follow(walk) : Uni.createFrom().voidItem())
                .map(done -> walk.result());
    }

    /**
     * A backfill offers a restated batch again to a step that consumed it: a New row that supersedes the step's
     * archived consumption, linked to it. Idempotent per backfill, batch and step (a repeat answers the same row). No
     * {@code BatchEnqueued} is sent: the backfill's own run claims the row, so no trigger starts a run of its own.
     * 340 when the step never consumed the batch, or when the batch already waits for it.
     */
    @WithTransaction
    public Uni<Reenqueued> reenqueue(ReenqueueRequest request) {
        return rows.reenqueued(request.backfillId(), request.batchId(), request.processId())
                .chain(done -> done.isPresent() ? Uni.createFrom().item(done)
                        : rows.reenqueue(request.backfillId(), request.batchId(), request.processId()))
                .map(made -> made.orElseThrow(() -> QueueError.NOTHING_TO_SUPERSEDE.exception("step "
                        + request.processId() + " has no archived consumption of batch " + request.batchId()
                        + " to supersede, or the batch already waits for it")));
    }

    private Uni<Void> follow(ImpactWalk walk) {
        Set<Long> outputs = walk.nextOutputs();
        if (outputs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return rows.consumersOf(outputs).invoke(walk::consumed).chain(() -> follow(walk));
    }
}
