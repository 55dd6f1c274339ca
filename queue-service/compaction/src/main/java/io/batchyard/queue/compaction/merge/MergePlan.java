package io.batchyard.queue.compaction.merge;

import java.util.List;

/**
 * What one run merges: the small objects {@code objects} (ids ascending), plus the open range's merged object when
 * {@code extendsOpenRange}, into one object covering (lower, upper]. {@code continuing} means work is left for a
 * follow-up run (carry-over).
 */
public record MergePlan(long lower, long upper, boolean extendsOpenRange, List<MergePlanner.Candidate> objects,
                        boolean continuing) {
}
