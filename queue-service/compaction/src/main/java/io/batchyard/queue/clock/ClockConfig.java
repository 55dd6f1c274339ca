package io.batchyard.queue.clock;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code batchyard.clock.*}: whether the service's clock may be moved over {@code /admin/clock}. */
@ConfigMapping(prefix = "batchyard.clock")
public interface ClockConfig {

    /** Off by default; refused at start-up in the {@code prod} profile. */
    @WithDefault("false")
    boolean movable();
}
