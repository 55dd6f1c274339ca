package io.batchyard.execution.bucket;

import java.util.List;

/**
 * Which eligible buckets one run takes: exact-match first (only the current period, older ones are never run), then
 * batch (all of them, oldest first, up to the max) or else only the oldest.
 */
public final class BucketSelection {

    private BucketSelection() {
    }

    /**
     * @param eligible      buckets in INIT (or FAILED where retried), any order
     * @param currentPeriod the clock's period for a date-pattern job, or null when the job has none
     */
    public static List<String> select(List<String> eligible, boolean exactMatch, boolean batch, Integer maxBatch,
                                      String currentPeriod) {
        List<String> sorted = eligible.stream().sorted().toList();
        if (exactMatch) {
            return sorted.stream().filter(b -> b.equals(currentPeriod)).limit(1).toList();
        }
        if (sorted.isEmpty()) {
            return List.of();
        }
        if (!batch) {
            return List.of(sorted.get(0));
        }
        return maxBatch == null ? sorted : sorted.stream().limit(maxBatch).toList();
    }
}
