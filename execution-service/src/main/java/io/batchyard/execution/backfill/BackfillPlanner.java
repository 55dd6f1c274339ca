package io.batchyard.execution.backfill;

import io.batchyard.execution.backfill.PlanEntry.ReasonLink;
import io.batchyard.schemas.backfill.ImpactCause;
import io.batchyard.schemas.backfill.ImpactUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Orders the units of an impact answer into a plan, free of I/O. A unit's level is one more than the highest level of
 * the units it consumed from (the longest path from a root), so in a diamond the join waits for both sides; its reason
 * chain follows its first cause back to a root. Entries are numbered level by level, then by process and bucket.
 */
public final class BackfillPlanner {

    private BackfillPlanner() {
    }

    /** The unit's bucket (the run's batch marking, else its inputs'), by run id; absent for a unit without a run. */
    public interface Buckets {
        String of(ImpactUnit unit);
    }

    public static List<PlanEntry> plan(List<ImpactUnit> units, Buckets buckets, Map<Long, Long> estimates) {
        Map<Long, ImpactUnit> byRun = new HashMap<>();
        for (ImpactUnit u : units) {
            if (u.runId() != null) {
                byRun.put(u.runId(), u);
            }
        }
        Map<ImpactUnit, Integer> levels = new HashMap<>();
        for (ImpactUnit u : units) {
            level(u, byRun, levels, 0);
        }
        List<ImpactUnit> ordered = new ArrayList<>(units);
        ordered.sort(Comparator.comparingInt((ImpactUnit u) -> levels.get(u))
                .thenComparingLong(ImpactUnit::processId)
                .thenComparing(buckets::of, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(ImpactUnit::runId, Comparator.nullsFirst(Comparator.naturalOrder())));
        Map<ImpactUnit, Integer> numbers = new HashMap<>();
        for (ImpactUnit u : ordered) {
            numbers.put(u, numbers.size() + 1);
        }
        List<PlanEntry> entries = new ArrayList<>(ordered.size());
        for (ImpactUnit u : ordered) {
            entries.add(new PlanEntry(numbers.get(u), levels.get(u), u.processId(), buckets.of(u), u.runId(),
                    u.inputBatchIds(), u.status(), u.root(), reason(u, byRun), estimates.get(u.processId()),
                    consumes(u, byRun, numbers), null));
        }
        return entries;
    }

    /** Longest path from a root; a cause outside the answer (or a cycle, which the walk never produces) adds nothing. */
    private static int level(ImpactUnit u, Map<Long, ImpactUnit> byRun, Map<ImpactUnit, Integer> levels, int depth) {
        Integer known = levels.get(u);
        if (known != null) {
            return known;
        }
        int level = 0;
        if (depth <= byRun.size()) {
            for (ImpactCause c : u.causes()) {
                ImpactUnit producer = byRun.get(c.runId());
                if (producer != null && producer != u) {
                    level = Math.max(level, level(producer, byRun, levels, depth + 1) + 1);
                }
            }
        }
        levels.put(u, level);
        return level;
    }

    /** The entries {@code u} consumed from, each with the batch, in cause order; a cause outside the answer is none. */
    private static List<PlanEntry.Consumed> consumes(ImpactUnit u, Map<Long, ImpactUnit> byRun,
                                                     Map<ImpactUnit, Integer> numbers) {
        List<PlanEntry.Consumed> consumed = new ArrayList<>();
        for (ImpactCause c : u.causes()) {
            ImpactUnit producer = byRun.get(c.runId());
            if (producer != null && producer != u) {
                consumed.add(new PlanEntry.Consumed(numbers.get(producer), c.batchId()));
            }
        }
        return List.copyOf(consumed);
    }

    /** From a root to {@code u}, following each unit's first cause. */
    private static List<ReasonLink> reason(ImpactUnit u, Map<Long, ImpactUnit> byRun) {
        List<ReasonLink> chain = new ArrayList<>();
        ImpactUnit at = u;
        while (at != null && chain.size() <= byRun.size()) {
            ImpactCause first = at.causes().isEmpty() ? null : at.causes().get(0);
            chain.add(0, new ReasonLink(at.processId(), at.runId(), first == null ? null : first.batchId()));
            at = first == null ? null : byRun.get(first.runId());
        }
        return List.copyOf(chain);
    }
}
