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

    /** How often due deadlines are fired and finished buckets settled: a deadline fires at most this late. */
    @WithDefault("PT1S")
    Duration checkInterval();

    /** How often the estimates of open finish deadlines are renewed (AT_RISK). */
    @WithDefault("PT15S")
    Duration estimateInterval();

    /** Deadlines one transaction fires or settles at most; a check keeps going while batches come back full. */
    @WithDefault("500")
    int batchSize();
}
