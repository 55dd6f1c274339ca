package io.batchyard.queue.backfill;

import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
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

    private Uni<Void> follow(ImpactWalk walk) {
        Set<Long> outputs = walk.nextOutputs();
        if (outputs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return rows.consumersOf(outputs).invoke(walk::consumed).chain(() -> follow(walk));
    }
}
