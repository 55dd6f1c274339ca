package io.batchyard.execution.runner;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * Reasons against running a parent that other features know and the runner does not (a trigger ignored because the
 * parent is not deployed): {@link WhyNotRunning} adds them to its own, so that one {@code GET /why} tells all.
 * Implementations run in the caller's session.
 */
public interface MoreReasons {

    Uni<List<Planner.Reason>> reasons(long processId);

    /** What a feature adds to /why: its reasons, and the buckets that wait for their data (oldest first). */
    record Findings(List<Planner.Reason> reasons, List<WaitingBucket> waiting) {
    }

    /** The reasons and the waiting buckets in one pass; a feature without waiting buckets has only its reasons. */
    default Uni<Findings> findings(long processId) {
        return reasons(processId).map(reasons -> new Findings(reasons, List.of()));
    }
}
