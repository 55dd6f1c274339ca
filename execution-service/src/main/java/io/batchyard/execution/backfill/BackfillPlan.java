package io.batchyard.execution.backfill;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * A backfill plan as a preview answers it and as it is kept: its id, the fingerprint of the state it was computed
 * from, its entries in the order they run, and estimates ({@code estimatedMs}: the estimates of the entries that run
 * added up, the work to do; {@code entriesWithoutEstimate}: entries that run whose process never succeeded, counted
 * in none of it). Pruned entries are listed, with why, and run not.
 */
public record BackfillPlan(UUID planId, String fingerprint, BackfillRequest request, String createdBy,
                           OffsetDateTime createdAt, int levels, long estimatedMs, int entriesWithoutEstimate,
                           List<PlanEntry> entries) {

    /** The entries the backfill re-runs: every entry but the pruned ones. */
    public List<PlanEntry> entriesThatRun() {
        return entries.stream().filter(PlanEntry::runs).toList();
    }

    static BackfillPlan of(UUID planId, String fingerprint, BackfillRequest request, String createdBy,
                           OffsetDateTime createdAt, List<PlanEntry> entries) {
        int levels = entries.stream().mapToInt(PlanEntry::level).max().orElse(-1) + 1;
        long estimated = entries.stream().filter(e -> e.runs() && e.estimatedMs() != null)
                .mapToLong(PlanEntry::estimatedMs).sum();
        int unknown = (int) entries.stream().filter(e -> e.runs() && e.estimatedMs() == null).count();
        return new BackfillPlan(planId, fingerprint, request, createdBy, createdAt, levels, estimated, unknown,
                entries);
    }
}
