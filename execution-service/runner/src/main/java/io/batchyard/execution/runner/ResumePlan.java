package io.batchyard.execution.runner;

import java.util.HashSet;
import java.util.Set;

/**
 * Which steps a re-run of a failed parent skips. InitJob names the last recoverable step R; steps that succeeded
 * since the parent's last success and lie on a path to R (or are R) are skipped. Unlike a plain "skip everything
 * before R", a failed branch of a fork that merges before R runs again.
 */
public final class ResumePlan {

    private ResumePlan() {
    }

    /**
     * @param resumeAt  InitJob's last recoverable step id; null or the parent id means start over
     * @param succeeded steps whose runs succeeded since the parent's last successful run
     */
    public static Set<Long> skipped(StepGraph graph, Long resumeAt, Set<Long> succeeded) {
        if (resumeAt == null || resumeAt == graph.parentId() || graph.step(resumeAt) == null) {
            return Set.of();
        }
        Set<Long> candidates = new HashSet<>(graph.ancestors(resumeAt));
        candidates.add(resumeAt);
        candidates.retainAll(succeeded);
        return candidates;
    }
}
