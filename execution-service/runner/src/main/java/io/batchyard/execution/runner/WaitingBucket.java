package io.batchyard.execution.runner;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * A bucket of a parent that waits for its data, as {@code GET /why} lists it: the policy it waits under, how many
 * batches arrived and how many it expects ({@code expected} 0: any one batch per input process), what is missing per
 * input process, and when an all-with-timeout bucket runs with what it has.
 */
public record WaitingBucket(String bucket, String policy, int arrived, int expected, List<Missing> missing,
                            OffsetDateTime timeoutAt) {

    /** The buckets an input process has not delivered (none listed: no batch at all yet). */
    public record Missing(long processId, List<String> buckets) {
    }
}
