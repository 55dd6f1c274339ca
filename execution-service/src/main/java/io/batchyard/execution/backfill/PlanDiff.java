package io.batchyard.execution.backfill;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What changed between a kept plan and the plan its request gives now: the entries only one of them has (an entry is
 * its process, bucket, replaced run, status and input batches). The same entries under another fingerprint is a
 * change too: a row the plan read moved, even if the plan comes out the same.
 */
public record PlanDiff(List<String> added, List<String> removed, boolean fingerprintChanged) {

    /** How many entries of each side the problem's text names; the counts are always whole. */
    static final int SHOWN = 20;

    static PlanDiff of(BackfillPlan kept, BackfillPlan now) {
        Set<String> before = keys(kept);
        Set<String> after = keys(now);
        List<String> added = after.stream().filter(k -> !before.contains(k)).toList();
        List<String> removed = before.stream().filter(k -> !after.contains(k)).toList();
        return new PlanDiff(added, removed, !kept.fingerprint().equals(now.fingerprint()));
    }

    boolean stale() {
        return fingerprintChanged || !added.isEmpty() || !removed.isEmpty();
    }

    /** The problem's detail: the counts, then the entries themselves (at most {@link #SHOWN} of each side). */
    String describe() {
        List<String> parts = new ArrayList<>();
        parts.add("the queue, its archive or the roots' buckets changed since the plan was made: "
                + added.size() + " entries more, " + removed.size() + " fewer");
        if (!added.isEmpty()) {
            parts.add("added " + String.join("; ", added.subList(0, Math.min(SHOWN, added.size()))));
        }
        if (!removed.isEmpty()) {
            parts.add("removed " + String.join("; ", removed.subList(0, Math.min(SHOWN, removed.size()))));
        }
        parts.add("preview again, or start with recompute true to run the plan as it is now");
        return String.join("; ", parts);
    }

    private static Set<String> keys(BackfillPlan plan) {
        Set<String> keys = new LinkedHashSet<>();
        for (PlanEntry e : plan.entries()) {
            keys.add("process " + e.processId() + " bucket " + e.bucket() + " run " + e.replacedRunId() + " "
                    + e.status() + " inputs " + e.inputBatchIds() + (e.runs() ? "" : " pruned"));
        }
        return keys;
    }
}
