package io.batchyard.queue.claim;

import static io.batchyard.api.LifecycleError.INVALID_PARENT_PROCESS;

import io.batchyard.queue.batch.BatchStore;
import io.batchyard.queue.batchcut.BatchCut;
import io.batchyard.queue.consumption.ConsumptionQueue;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The queue side of InitJob: validates that the parent's steps have their batches, creates the run's target batch
 * and binds the input rows to it (fresh run), or re-binds the failed run's target batch (retry). One transaction,
 * serialised per parent by a lock on its read-model row, and idempotent per run id.
 */
@ApplicationScoped
public class RunClaim {

    @Inject
    Jdbi jdbi;

    @Inject
    ProcessDefinitions definitions;

    @Inject
    ConsumptionQueue queue;

    @Inject
    BatchStore batches;

    @Inject
    ClaimStore claims;

    public ClaimApi.ClaimResult claim(long parentId, long instanceExecId, Integer maxBatch, Long completedTargetBatchId) {
        return jdbi.inTransaction(tx -> {
            Optional<ProcessDefinition> parent = definitions.lock(tx, parentId);
            Optional<ClaimStore.Claim> previous = claims.find(tx, instanceExecId);
            if (previous.isPresent()) {
                return result(tx, previous.get().targetBatchId(), previous.get().retry(), stepIds(tx, parentId));
            }
            List<ProcessDefinition> steps = List.of();
            if (parent.isPresent() && parent.get().isParent() && !parent.get().deleted()) {
                steps = definitions.tree(tx, parentId).map(ProcessDefinitions.Tree::steps).orElse(List.of());
            }
            List<Long> stepIds = steps.stream().map(ProcessDefinition::processId).toList();
            if (completedTargetBatchId != null && claims.claimedFor(tx, parentId, completedTargetBatchId)) {
                // The last run succeeded but its JobHalted may still be on its way: what it consumed is done.
                // Only a target this parent's own runs claimed qualifies, so a wrong id cannot archive another job's rows.
                queue.archive(tx, completedTargetBatchId);
            }
            Map<Long, List<QueueRow>> rows = byStep(queue.rowsOf(tx, stepIds));
            // 101 is evaluated before the parent check (spec 3.1): with no steps it cannot fire.
            BatchCut.validate(steps, rows, maxBatch);
            if (steps.isEmpty()) {
                throw INVALID_PARENT_PROCESS.exception("Invalid parent-process. pid=" + parentId
                        + (parent.isPresent() && parent.get().isParent() && !parent.get().deleted() ? " (it has no live steps)" : ""));
            }
            if (steps.stream().noneMatch(ProcessDefinition::isEnqueued) && rows.isEmpty()) {
                for (ProcessDefinition s : steps) {
                    queue.enqueue(tx, 0, null, null, s.processId());
                }
                rows = byStep(queue.rowsOf(tx, stepIds));
            }
            Optional<Long> claimedTarget = rows.values().stream().flatMap(List::stream).filter(QueueRow::claimed)
                    .map(QueueRow::targetBatchId).findFirst();
            long target;
            boolean retry = claimedTarget.isPresent();
            if (retry) {
                target = claimedTarget.get();
                queue.reaccess(tx, target);
                batches.bindToRun(tx, target, instanceExecId);
            } else {
                target = batches.create(tx, instanceExecId, "Type1");
                for (BatchCut.Claim c : BatchCut.select(steps, rows, maxBatch)) {
                    queue.claim(tx, c.queueIds(), target, c.access());
                }
            }
            claims.insert(tx, new ClaimStore.Claim(instanceExecId, parentId, target, retry));
            return result(tx, target, retry, stepIds);
        });
    }

    private List<Long> stepIds(Handle tx, long parentId) {
        return definitions.tree(tx, parentId).map(t -> t.steps().stream().map(ProcessDefinition::processId).toList())
                .orElse(List.of());
    }

    /** E3: one row per claimed queue row, ordered by step and source batch, with the source batches' files. */
    private ClaimApi.ClaimResult result(Handle tx, long target, boolean retry, List<Long> stepIds) {
        List<QueueRow> claimed = queue.rowsOf(tx, stepIds).stream()
                .filter(r -> r.targetBatchId() != null && r.targetBatchId() == target)
                .sorted(Comparator.comparingLong(QueueRow::processId).thenComparingLong(QueueRow::sourceBatchId))
                .toList();
        List<Long> sources = claimed.stream().map(QueueRow::sourceBatchId).distinct().toList();
        Map<Long, List<String>> files = batches.pathsOf(tx, sources);
        Map<Long, Long> producers = batches.producers(tx, sources);
        List<ClaimApi.ClaimedRow> out = new ArrayList<>();
        for (QueueRow r : claimed) {
            List<String> paths = files.getOrDefault(r.sourceBatchId(), List.of());
            out.add(new ClaimApi.ClaimedRow(r.processId(), r.sourceBatchId(), r.batchMarking(), target,
                    producers.get(r.sourceBatchId()),
                    paths.isEmpty() ? null : String.join(",", paths),
                    paths.isEmpty() ? null : paths.stream().map(p -> String.valueOf(r.sourceBatchId()))
                            .collect(Collectors.joining(","))));
        }
        return new ClaimApi.ClaimResult(target, retry, out);
    }

    private static Map<Long, List<QueueRow>> byStep(List<QueueRow> rows) {
        return rows.stream().collect(Collectors.groupingBy(QueueRow::processId));
    }
}
