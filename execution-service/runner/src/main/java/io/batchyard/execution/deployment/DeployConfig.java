package io.batchyard.execution.deployment;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code batchyard.deploy.*}: the deployment poller. */
@ConfigMapping(prefix = "batchyard.deploy")
public interface DeployConfig {

    /** Whether the periodic poll runs (off in tests, which call {@link DeployPoller#pollOnce()} themselves). */
    @WithDefault("true")
    boolean enabled();

    /** How often waiting deployments are picked. */
    @WithDefault("PT10S")
    Duration pollInterval();

    /** Deployments one poll picks at most. */
    @WithDefault("10")
    int batchSize();

    /** A deployment script running longer is killed and the deployment failed. */
    @WithDefault("PT30M")
    Duration timeout();
}
