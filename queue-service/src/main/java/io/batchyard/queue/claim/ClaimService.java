package io.batchyard.queue.claim;

import static io.batchyard.api.LifecycleError.INVALID_PARENT_PROCESS;

import io.batchyard.api.Unavailability;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.batch.BatchService;
import io.batchyard.queue.batchcut.BatchCut;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.queue.consumption.QueueService;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.readmodel.ProcessDefinitionRepository.Guarded;
import io.batchyard.schemas.claim.ClaimResult;
import io.batchyard.schemas.claim.ClaimedRow;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The queue side of InitJob: validates that the parent's steps have their batches, creates the run's target batch
 * and binds the input rows to it (fresh run), or re-binds the failed run's target batch (retry). One transaction,
 * serialised per parent by a lock on its read-model row, and idempotent per run id.
 */
@ApplicationScoped
public class ClaimService {

    private final ProcessDefinitionRepository definitions;
    private final QueueService queue;
    private final BatchService batches;
    private final ClaimRepository claims;

    public ClaimService(ProcessDefinitionRepository definitions, QueueService queue, BatchService batches,
                        ClaimRepository claims) {
        this.definitions = definitions;
        this.queue = queue;
        this.batches = batches;
        this.claims = claims;
    }

    /**
     * Claims in one transaction, tried afresh when PostgreSQL picked it as a deadlock's victim (or failed it as not
     * serialisable). The lifecycle consumer no longer meets a claim that way: it takes the parent's lock before any
     * of the run's rows, as the claim does (see {@code LifecycleService}). Other writers of the queue's rows do not
     * (the "latest batch wins" drop of another parent's rows, an operator's SQL), and losing to one of them is not
     * the caller's fault. The claim is idempotent per run id, so the retry is the same claim; it runs at once, on
     * the same event loop, in a new session.
     */
    public Uni<ClaimResult> claim(long parentId, long instanceExecId, Integer maxBatch, Long completedTargetBatchId,
                                  Collection<Long> sourceBatchIds, UUID backfillId) {
        Set<Long> exactly = sourceBatchIds == null ? null : Set.copyOf(sourceBatchIds);
        return Uni.createFrom().deferred(() -> Panache.withTransaction(() ->
                        claimOnce(parentId, instanceExecId, maxBatch, completedTargetBatchId, exactly, backfillId)))
                .onFailure(ClaimService::lostConflict).retry().atMost(CONFLICT_RETRIES);
    }

    /** The claim of a run, in the caller's transaction. */
    public Uni<Optional<Claim>> find(long instanceExecId) {
        return claims.find(instanceExecId);
    }

    /** The claims of these runs, in the caller's transaction. */
    public Uni<List<Claim>> findAll(Collection<Long> instanceExecIds) {
        return claims.findAll(instanceExecIds);
    }

    /** How often a claim that lost a deadlock or serialisation conflict is tried again. */
    static final int CONFLICT_RETRIES = 3;

    private static boolean lostConflict(Throwable failure) {
        // Hibernate Reactive hands the client's error on wrapped; the SQL state is somewhere in the chain.
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String state = Unavailability.sqlState(t);
            if ("40P01".equals(state) || "40001".equals(state)) {
                return true;
            }
        }
        return false;
    }

    private Uni<ClaimResult> claimOnce(long parentId, long instanceExecId, Integer maxBatch,
                                       Long completedTargetBatchId, Set<Long> sourceBatchIds, UUID backfillId) {
        // The parent's row is locked and its live steps read in one statement.
        return definitions.lockGuardedWithSteps(parentId).chain(job -> claims.find(instanceExecId).chain(previous -> {
            Optional<ProcessDefinition> parent = job.parent().map(Guarded::definition);
            if (previous.isPresent()) {
                List<Long> stepIds = parent.filter(ProcessDefinition::isParent).map(p -> job.steps()).orElse(List.of())
                        .stream().map(ProcessDefinition::processId).toList();
                return result(previous.get().targetBatchId(), previous.get().retry(), stepIds);
            }
            boolean liveParent = parent.isPresent() && parent.get().isParent() && !parent.get().deleted();
            List<ProcessDefinition> steps = liveParent ? job.steps() : List.of();
            return archiveCompleted(parentId, completedTargetBatchId)
                    .chain(() -> fresh(parentId, instanceExecId, maxBatch, sourceBatchIds, backfillId, liveParent,
                            steps));
        }));
    }

    /**
     * The last run succeeded but its JobHalted may still be on its way: what it consumed is done. Only a target this
     * parent's own runs claimed qualifies, so a wrong id cannot archive another job's rows.
     */
    private Uni<Void> archiveCompleted(long parentId, Long completedTargetBatchId) {
        if (completedTargetBatchId == null) {
            return Uni.createFrom().voidItem();
        }
        return claims.claimedFor(parentId, completedTargetBatchId).chain(claimed -> claimed
                ? queue.archive(completedTargetBatchId).replaceWithVoid() : Uni.createFrom().voidItem());
    }

    private Uni<ClaimResult> fresh(long parentId, long instanceExecId, Integer maxBatch, Set<Long> sourceBatchIds,
                                   UUID backfillId, boolean liveParent, List<ProcessDefinition> steps) {
        List<Long> stepIds = steps.stream().map(ProcessDefinition::processId).toList();
        return queue.rowsOf(stepIds).map(ClaimService::byStep).chain(rows -> {
            // 101 is evaluated before the parent check (102), in the reference's order: with no steps it cannot fire.
            // A claim of named batches needs no max batch: the names say how many. A failed run's rows still bound to
            // its target come first whatever is named (the claim below retries them), so names are then not checked:
            // a run that a crash cut short is resumed, not refused because its batches are no longer New.
            boolean retryPending = rows.values().stream().flatMap(List::stream).anyMatch(QueueRow::claimed);
            if (sourceBatchIds == null) {
                BatchCut.validate(steps, rows, maxBatch);
            } else if (!retryPending) {
                BatchCut.validateNamed(steps, rows, sourceBatchIds);
            }
            if (steps.isEmpty()) {
                throw INVALID_PARENT_PROCESS.exception("Invalid parent-process. pid=" + parentId
                        + (liveParent ? " (it has no live steps)" : ""));
            }
            if (steps.stream().noneMatch(ProcessDefinition::isEnqueued) && rows.isEmpty()) {
                return InOrder.each(steps, s -> queue.enqueue(0, null, null, s.processId()))
                        .chain(() -> queue.rowsOf(stepIds)).map(ClaimService::byStep);
            }
            return Uni.createFrom().item(rows);
        }).chain(rows -> {
            List<QueueRow> all = rows.values().stream().flatMap(List::stream).toList();
            Optional<Long> claimedTarget = all.stream().filter(QueueRow::claimed).map(QueueRow::targetBatchId)
                    .findFirst();
            boolean retry = claimedTarget.isPresent();
            Uni<Long> target;
            // The answer lists the claimed rows as read above: the claim changes only their target and state, which
            // the answer does not show, so they are not read a second time.
            List<QueueRow> claimedRows;
            if (retry) {
                long t = claimedTarget.get();
                target = queue.reaccess(t).chain(() -> batches.bindToRun(t, instanceExecId)).replaceWith(t);
                claimedRows = all.stream().filter(r -> r.targetBatchId() != null && r.targetBatchId() == t).toList();
            } else {
                List<BatchCut.Claim> chosen = sourceBatchIds == null ? BatchCut.select(steps, rows, maxBatch)
                        : BatchCut.selectNamed(steps, rows, sourceBatchIds, maxBatch);
                Set<Long> chosenIds = chosen.stream().flatMap(c -> c.queueIds().stream()).collect(Collectors.toSet());
                target = batches.createTarget(instanceExecId).call(t -> queue.claim(chosenIds,
                        chosen.stream().filter(BatchCut.Claim::access).flatMap(c -> c.queueIds().stream()).toList(), t));
                claimedRows = all.stream().filter(r -> chosenIds.contains(r.queueId())).toList();
            }
            return target.call(t -> claims.insert(new Claim(instanceExecId, parentId, t, retry, backfillId)))
                    .chain(t -> answer(t, retry, claimedRows));
        });
    }

    /** The answer to a claim made before: the rows its target holds now. */
    private Uni<ClaimResult> result(long target, boolean retry, List<Long> stepIds) {
        return queue.rowsOf(stepIds).chain(all -> answer(target, retry, all.stream()
                .filter(r -> r.targetBatchId() != null && r.targetBatchId() == target).toList()));
    }

    /** E3: one row per claimed queue row, ordered by step and source batch, with the source batches' files. */
    private Uni<ClaimResult> answer(long target, boolean retry, List<QueueRow> rows) {
        List<QueueRow> claimed = rows.stream()
                .sorted(Comparator.comparingLong(QueueRow::processId).thenComparingLong(QueueRow::sourceBatchId))
                .toList();
        List<Long> sources = claimed.stream().map(QueueRow::sourceBatchId).distinct().toList();
        return batches.sources(sources).map(read -> {
            List<ClaimedRow> out = new ArrayList<>();
            for (QueueRow r : claimed) {
                List<String> paths = read.paths().getOrDefault(r.sourceBatchId(), List.of());
                out.add(new ClaimedRow(r.queueId(), r.processId(), r.sourceBatchId(), r.batchMarking(),
                        target, r.sourceProcessId(), read.producers().get(r.sourceBatchId()),
                        paths.isEmpty() ? null : String.join(",", paths),
                        paths.isEmpty() ? null : paths.stream().map(p -> String.valueOf(r.sourceBatchId()))
                                .collect(Collectors.joining(","))));
            }
            return new ClaimResult(target, retry, out);
        });
    }

    private static Map<Long, List<QueueRow>> byStep(List<QueueRow> rows) {
        return rows.stream().collect(Collectors.groupingBy(QueueRow::processId));
    }
}
