package io.batchyard.execution.deadline;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code batchyard.deadlines.*}: the data-deadline watch. */
@ConfigMapping(prefix = "batchyard.deadlines")
public interface DeadlineConfig {

    /** Whether the watch runs on its own (materialise, settle, fire every check interval; estimate on its own). */
    @WithDefault("true")
    boolean enabled();

    /** How often every open deadline is settled (finished buckets) and due ones fired. */
    @WithDefault("PT1S")
    Duration checkInterval();

    /** How often the due deadlines alone are settled or fired, between checks: a deadline fires at most this late. */
    @WithDefault("PT0.1S")
    Duration fireInterval();

    /** How often the estimates of open finish deadlines are renewed (AT_RISK). */
    @WithDefault("PT15S")
    Duration estimateInterval();

    /**
     * How long before a bucket is worked on its deadlines are created (SET): ahead of time, so that creating the next
     * buckets' deadlines never competes with firing those of the buckets that just ended.
     */
    @WithDefault("PT1H")
    Duration lookahead();

    /** Deadlines one transaction fires or settles at most; a check keeps going while batches come back full. */
    @WithDefault("500")
    int batchSize();
}
