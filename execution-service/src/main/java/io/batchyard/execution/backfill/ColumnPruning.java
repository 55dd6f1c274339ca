package io.batchyard.execution.backfill;

import io.batchyard.execution.backfill.BackfillRequest.Root;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Leaves out of a plan the entries a column restatement cannot change, free of I/O. A root that names columns says
 * only those columns of its output changed; a job downstream re-runs only when the column lineage of one of them
 * reaches it (a query of the job reads the column, or a column made from it, through any number of hops). Entries are
 * taken in plan order (every entry after those it consumes from):
 * <ul>
 *   <li>a root entry always runs;</li>
 *   <li>an entry whose every producing entry was pruned is pruned: nothing it consumes changes;</li>
 *   <li>an entry downstream of a root that names no column runs: that root's whole output changed;</li>
 *   <li>otherwise it runs when the lineage of a column of a root it descends from reaches its job, and is pruned if
 *       not.</li>
 * </ul>
 * An entry that runs no longer waits for the pruned entries it consumed from: their batches are consumed as they are.
 */
final class ColumnPruning {

    private ColumnPruning() {
    }

    /**
     * @param entries the plan's entries, in entry order
     * @param roots the request's roots, with their columns
     * @param reach for each column the roots name, the jobs its lineage reaches
     */
    static List<PlanEntry> prune(List<PlanEntry> entries, List<Root> roots, Map<String, Set<Long>> reach) {
        Map<Long, List<String>> columnsOf = new HashMap<>();
        for (Root r : roots) {
            columnsOf.computeIfAbsent(r.processId(), k -> new ArrayList<>()).addAll(r.columnsOrNone());
        }
        // A root named twice, once without columns, restated its whole output.
        roots.stream().filter(r -> r.columnsOrNone().isEmpty()).forEach(r -> columnsOf.put(r.processId(), List.of()));
        Map<Integer, PlanEntry> byNo = new HashMap<>();
        Map<Integer, Set<Long>> rootsOf = new HashMap<>();
        List<PlanEntry> out = new ArrayList<>(entries.size());
        for (PlanEntry e : entries) {
            PlanEntry decided = decide(e, byNo, rootsOf, columnsOf, reach);
            byNo.put(decided.entryNo(), decided);
            out.add(decided);
        }
        return List.copyOf(out);
    }

    private static PlanEntry decide(PlanEntry e, Map<Integer, PlanEntry> byNo, Map<Integer, Set<Long>> rootsOf,
                                    Map<Long, List<String>> columnsOf, Map<String, Set<Long>> reach) {
        if (e.root() || e.consumes().isEmpty()) {
            rootsOf.put(e.entryNo(), Set.of(e.processId()));
            return e;
        }
        List<PlanEntry.Consumed> kept = e.consumes().stream()
                .filter(c -> byNo.containsKey(c.entryNo()) && byNo.get(c.entryNo()).runs()).toList();
        if (kept.isEmpty()) {
            return e.pruned("nothing it consumes is re-run: entries " + e.consumes().stream()
                    .map(c -> String.valueOf(c.entryNo())).distinct().toList() + " were pruned");
        }
        Set<Long> ancestors = new TreeSet<>();
        kept.forEach(c -> ancestors.addAll(rootsOf.getOrDefault(c.entryNo(), Set.of())));
        rootsOf.put(e.entryNo(), ancestors);
        Set<String> columns = new LinkedHashSet<>();
        for (long root : ancestors) {
            List<String> named = columnsOf.getOrDefault(root, List.of());
            if (named.isEmpty()) {
                return keep(e, kept);
            }
            columns.addAll(named);
        }
        for (String column : columns) {
            if (reach.getOrDefault(column, Set.of()).contains(e.processId())) {
                return keep(e, kept);
            }
        }
        return e.pruned("the column lineage of " + String.join(", ", columns) + " does not reach process "
                + e.processId());
    }

    private static PlanEntry keep(PlanEntry e, List<PlanEntry.Consumed> kept) {
        return kept.size() == e.consumes().size() ? e : e.consuming(kept);
    }
}
