package io.batchyard.execution.bucket;

/**
 * The condition under which a bucket_status row {@code b} may be taken by a run, the one rule both the planner and
 * the launcher's "which jobs have work" query apply, whichever feature's repository holds the query.
 */
public final class BucketEligibility {

    private BucketEligibility() {
    }

    /**
     * @param retryFailed SQL for whether the policy retries failed buckets
     * @param maxAttempts SQL for the policy's number of runs a bucket gets; the caller binds {@code :now} to the
     *                    service clock's now, which decides whether a back-off has passed
     */
    public static String condition(String retryFailed, String maxAttempts) {
        return "(b.status = 'INIT' OR (" + retryFailed + " AND b.status = 'FAILED' AND b.attempts < " + maxAttempts
                + " AND (b.next_attempt_at IS NULL OR b.next_attempt_at <= CAST(:now AS timestamptz))))";
    }
}
