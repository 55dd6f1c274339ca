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

    /** The parent's buckets that wait for their data, oldest first (at most ten); none by default. */
    default Uni<List<WaitingBucket>> waiting(long processId) {
        return Uni.createFrom().item(List.of());
    }
}
