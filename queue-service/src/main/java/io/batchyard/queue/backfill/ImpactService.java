package io.batchyard.queue.backfill;

import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.queue.QueueError;
import io.batchyard.schemas.backfill.ReenqueueRequest;
import io.batchyard.schemas.backfill.Reenqueued;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which runs a restatement makes wrong, read from the consumption queue and its archive: the roots' runs, then level
 * by level the runs that consumed a completed unit's output batch. One session, reads only, so asking changes nothing;
 * one statement per level, whatever the number of batches in it.
 */
@ApplicationScoped
public class ImpactService {

    private final ImpactRepository rows;
    private final ProcessDefinitionRepository definitions;

    public ImpactService(ImpactRepository rows, ProcessDefinitionRepository definitions) {
        this.rows = rows;
        this.definitions = definitions;
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
     * A backfill offers a batch again to the steps of a job that consumed an affected batch: the restated batch itself,
     * or the backfill's re-run output that supersedes it. Each offer is a New row that supersedes the step's archived
     * consumption, linked to it. Idempotent per backfill, batch and step: a repeat answers the rows made before, and
     * makes the ones a step lacked. No {@code BatchEnqueued} is sent: the backfill's own run claims the rows, so no
     * trigger starts a run of its own. 340 when no step of the job has anything to be offered.
     */
    @WithTransaction
    public Uni<Reenqueued> reenqueue(ReenqueueRequest request) {
        return definitions.stepsOf(request.processId())
                .map(steps -> steps.stream().map(ProcessDefinition::processId).toList())
                .chain(steps -> rows.reenqueued(request.backfillId(), request.batchId(), steps)
                        .chain(before -> {
                            // A step offered once by this backfill is never offered again: its first offer may be
                            // consumed and archived by now, and would look like a consumption to supersede.
                            Set<Long> offered = before.stream().map(Reenqueued.Row::processId).collect(Collectors.toSet());
                            List<Long> rest = steps.stream().filter(s -> !offered.contains(s)).toList();
                            return (rest.isEmpty() ? Uni.createFrom().item(List.<Reenqueued.Row>of())
                                    : rows.reenqueue(request.backfillId(), request.batchId(), request.offered(), rest))
                                .map(made -> {
                                    List<Reenqueued.Row> all = new ArrayList<>(before);
                                    all.addAll(made);
                                    all.sort(Comparator.comparingLong(Reenqueued.Row::processId));
                                    return all;
                                });
                        }))
                .map(all -> {
                    if (all.isEmpty()) {
                        throw QueueError.NOTHING_TO_SUPERSEDE.exception("no step of job " + request.processId()
                                + " has an archived consumption of batch " + request.batchId()
                                + " to supersede, or batch " + request.offered() + " already waits for each");
                    }
                    return new Reenqueued(all);
                });
    }

    private Uni<Void> follow(ImpactWalk walk) {
        Set<Long> outputs = walk.nextOutputs();
        if (outputs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return rows.consumersOf(outputs).invoke(walk::consumed).chain(() -> follow(walk));
    }
}
