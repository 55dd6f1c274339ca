package io.batchyard.queue.batchcut;

import static io.batchyard.api.LifecycleError.BATCHES_MISSING;
import static io.batchyard.api.LifecycleError.MAX_BATCH_NULL;
import static io.batchyard.api.LifecycleError.NO_BATCHES;

import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.readmodel.ProcessDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which queued batches a starting run of a parent takes, per step (InitJob's checks for codes 101, 109 and 112, and the
 * rows it claims), as pure functions over the rows so the rules can be tested without a database. Implements the
 * reference's intent where its code differed: checks look at the step's own rows, a multi-enqueuer step needs a batch
 * from every enqueuer and takes the oldest of each, and max_batch above what is queued takes what is there.
 */
public final class BatchCut {

    /** The rows one step claims, and whether they become Accessed (placeholders of non-enqueued steps stay New). */
    public record Claim(long stepId, List<Long> queueIds, boolean access) {
    }

    private BatchCut() {
    }

    /** The checks for 101, 109 and 112, in the reference's order; the first failure wins. */
    public static void validate(List<ProcessDefinition> steps, Map<Long, List<QueueRow>> rows, Integer maxBatch) {
        if (maxBatch == null && steps.stream().anyMatch(s -> s.isEnqueued() && !s.hasCutPattern())) {
            throw MAX_BATCH_NULL.exception("max_batch cannot be null");
        }
        for (ProcessDefinition s : steps) {
            if (s.isEnqueued() && s.hasCutPattern()
                    && rows(rows, s).stream().noneMatch(r -> matches(r, s.batchCutPattern()))) {
                throw BATCHES_MISSING.exception("No batch matching the batch-cut-pattern has been found for sub process yet,"
                        + " sub_pid=" + s.processId());
            }
        }
        for (ProcessDefinition s : steps) {
            if (!s.isEnqueued() || s.hasCutPattern()) {
                continue;
            }
            List<QueueRow> queued = rows(rows, s);
            if (queued.isEmpty()) {
                throw NO_BATCHES.exception("No batches present for one of the sub processes, sub_pid=" + s.processId());
            }
            for (Long enqueuer : s.enqueuingProcessIds()) {
                if (queued.stream().noneMatch(r -> enqueuer.equals(r.sourceProcessId()))) {
                    throw BATCHES_MISSING.exception("Not all necessary batches are present for the sub process, sub_pid="
                            + s.processId() + ": nothing queued yet from enqueuing process " + enqueuer);
                }
            }
        }
    }

    /** What a fresh run claims from each step's (unclaimed) rows. */
    public static List<Claim> select(List<ProcessDefinition> steps, Map<Long, List<QueueRow>> rows, Integer maxBatch) {
        List<Claim> claims = new ArrayList<>();
        for (ProcessDefinition s : steps) {
            List<QueueRow> queued = rows(rows, s).stream().filter(r -> !r.claimed()).toList();
            if (queued.isEmpty()) {
                continue;
            }
            List<QueueRow> taken;
            if (!s.isEnqueued()) {
                taken = oldest(queued, maxBatch);
            } else if (s.hasCutPattern()) {
                Optional<Long> cut = queued.stream().filter(r -> matches(r, s.batchCutPattern()))
                        .map(QueueRow::sourceBatchId).min(Long::compare);
                taken = cut.map(c -> queued.stream().filter(r -> r.sourceBatchId() <= c).toList()).orElse(List.of());
            } else if (s.enqueuingProcessIds().size() > 1) {
                taken = s.enqueuingProcessIds().stream()
                        .flatMap(e -> queued.stream().filter(r -> e.equals(r.sourceProcessId())).limit(1))
                        .toList();
            } else {
                taken = oldest(queued, maxBatch);
            }
            if (!taken.isEmpty()) {
                claims.add(new Claim(s.processId(), taken.stream().map(QueueRow::queueId).toList(), s.isEnqueued()));
            }
        }
        return claims;
    }

    /**
     * A claim of named source batches (a triggered run takes what its trigger attributed to it): 112 when none of the
     * parent's enqueued steps has a New, unclaimed row of any of them, since such a run would consume nothing.
     */
    public static void validateNamed(List<ProcessDefinition> steps, Map<Long, List<QueueRow>> rows,
                                     Set<Long> sourceBatchIds) {
        boolean any = steps.stream().filter(ProcessDefinition::isEnqueued)
                .anyMatch(s -> !named(rows(rows, s), sourceBatchIds).isEmpty());
        if (!any && steps.stream().anyMatch(ProcessDefinition::isEnqueued)) {
            throw NO_BATCHES.exception("No batches present for one of the sub processes: none of the source batches "
                    + sourceBatchIds.stream().sorted().toList() + " is queued (New) for a step of the parent");
        }
    }

    /**
     * What a run claims when its batches are named: every New, unclaimed row of an enqueued step whose source batch is
     * named, whatever {@code maxBatch} (the names say how many); a step without enqueuer claims its placeholder as usual.
     */
    public static List<Claim> selectNamed(List<ProcessDefinition> steps, Map<Long, List<QueueRow>> rows,
                                          Set<Long> sourceBatchIds, Integer maxBatch) {
        List<Claim> claims = new ArrayList<>();
        for (ProcessDefinition s : steps) {
            List<QueueRow> taken = s.isEnqueued() ? named(rows(rows, s), sourceBatchIds)
                    : oldest(rows(rows, s).stream().filter(r -> !r.claimed()).toList(), maxBatch);
            if (!taken.isEmpty()) {
                claims.add(new Claim(s.processId(), taken.stream().map(QueueRow::queueId).toList(), s.isEnqueued()));
            }
        }
        return claims;
    }

    private static List<QueueRow> named(List<QueueRow> rows, Set<Long> sourceBatchIds) {
        return rows.stream().filter(r -> !r.claimed() && r.batchState() == QueueRow.NEW
                && sourceBatchIds.contains(r.sourceBatchId())).toList();
    }

    private static List<QueueRow> oldest(List<QueueRow> queued, Integer maxBatch) {
        return maxBatch == null ? queued : queued.subList(0, Math.min(Math.max(maxBatch, 0), queued.size()));
    }

    private static boolean matches(QueueRow r, String pattern) {
        return r.batchMarking() != null && r.batchMarking().contains(pattern);
    }

    private static List<QueueRow> rows(Map<Long, List<QueueRow>> rows, ProcessDefinition s) {
        return rows.getOrDefault(s.processId(), List.of());
    }
}
