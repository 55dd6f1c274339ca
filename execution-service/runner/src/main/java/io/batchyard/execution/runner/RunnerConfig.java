package io.batchyard.execution.runner;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** {@code batchyard.runner.*}: the stand-alone runner and its scheduler. */
@ConfigMapping(prefix = "batchyard.runner")
public interface RunnerConfig {

    /** Whether the periodic tick fires schedules and launches due parents (off in tests that drive cycles). */
    @WithDefault("true")
    boolean schedulerEnabled();

    /** How often the scheduler fires schedules and launches parents with work. */
    @WithDefault("5s")
    Duration tick();

    /** Where relative script names resolve; default {@code ./scripts} of the working directory. */
    Optional<String> scriptDir();

    /** Working directory of every command; default the service's own. */
    Optional<String> workDir();

    /** Above this many characters, the previous script's stdout goes to a file named by PIPEFILE. */
    @WithDefault("65536")
    int spillThreshold();

    /** How long a claim on a parent lives without a refresh; a runner that dies loses it after this. */
    @WithDefault("PT2M")
    Duration lease();

    /**
     * On shutdown, how long running steps may go on to their end; after it their processes are stopped and their
     * leases expired, so another replica resumes the runs. Kubernetes' terminationGracePeriodSeconds must be longer.
     */
    @WithDefault("PT60S")
    Duration drainGrace();

    /** Parents launched at once by one runner. */
    @WithDefault("4")
    int parallelJobs();

    /** This runner's name in leases; default host name plus a random suffix. */
    Optional<String> owner();

    /** Time zone of date buckets when a job has no schedule naming one. */
    @WithDefault("UTC")
    String timeZone();

    /**
     * Where steps run: {@code local} (child processes of this service, as {@link #jobUser()}) or {@code kubernetes}
     * (a Job per step command, see {@code batchyard.runner.kubernetes.*}).
     */
    @WithDefault("local")
    String launcher();

    /**
     * The unprivileged user every command a job defines (steps, hooks, bucket, loop, context and dependency scripts)
     * runs as when this service runs as root: it cannot read the service's environment, its files or its secrets.
     */
    @WithDefault("batchyard-job")
    String jobUser();

    /**
     * Whether to switch to {@link #jobUser()}; false keeps every job on the service's own user, which then needs
     * {@link #sharedUserAccepted()}.
     */
    @WithDefault("true")
    boolean switchUser();

    /**
     * When jobs cannot run as {@link #jobUser()} (the service is not root, the user does not exist, no setpriv), run
     * them as the service's own user anyway, accepting that a job can then read the service's environment and files.
     * Off: such a service launches no job, says so at start and in {@code /why}.
     */
    @WithDefault("false")
    boolean sharedUserAccepted();
}
