package io.batchyard.execution.trigger;

import io.batchyard.execution.bucket.BucketGrain;
import java.time.Duration;
import java.util.List;

/**
 * A parent's trigger settings as stored: its policy; the input processes it considers ({@code null}: every enqueuing
 * process its live steps name); n of n-of; all-with-timeout's timeout; the grain of its buckets ({@code null}: the
 * upstream grain, the input's own bucket) and their zone ({@code null}: the runner's time zone), which also say how its
 * own markings are read by its consumers; whether inputs for a bucket join its pending run; whether it is paused.
 */
public record TriggerSettings(TriggerPolicy policy, List<Long> inputs, Integer n, Duration timeout, BucketGrain grain,
                              String zone, boolean coalesce, boolean paused) {

    /** A parent that was never given a policy. */
    public static final TriggerSettings NONE = new TriggerSettings(TriggerPolicy.NONE, null, null, null, null, null,
            true, false);

    /** The grain's name in requests and answers: {@code upstream} or a {@link BucketGrain}'s. */
    public String grainText() {
        return grain == null ? "upstream" : grain.text();
    }
}
