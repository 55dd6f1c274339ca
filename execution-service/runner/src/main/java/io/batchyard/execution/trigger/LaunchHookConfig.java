package io.batchyard.execution.trigger;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code batchyard.trigger.launcher.*}: how a triggered Oozie (workflow type 1) or Airflow (3) parent is started. The
 * runner only runs stand-alone parents; the others belong to an orchestrator that this hook asks.
 */
@ConfigMapping(prefix = "batchyard.trigger.launcher")
public interface LaunchHookConfig {

    /** The hook of these parents. */
    enum Kind {
        /** No hook: triggers of Oozie and Airflow parents are ignored (counted and logged). */
        NONE,
        /** {@code POST} of the launch request as JSON to {@link #url()}; any 2xx answer is a launch. */
        HTTP,
        /** {@link #command()} with {@link #args()}, then process id, workflow type and source batch id, the JSON on
         *  standard input; exit code 0 is a launch. */
        COMMAND
    }

    @WithDefault("none")
    Kind kind();

    /** The orchestrator's endpoint of {@link Kind#HTTP}. */
    Optional<String> url();

    /** The executable of {@link Kind#COMMAND} (an absolute path: it runs with PATH=/usr/bin:/bin only). */
    Optional<String> command();

    /** Arguments before the trigger's own. */
    Optional<List<String>> args();

    /** One attempt waits this long at most (the HTTP answer, or the command's exit). */
    @WithDefault("PT30S")
    Duration timeout();

    /** Attempts per trigger, the first included; a trigger whose last attempt fails is counted as failed. */
    @WithDefault("3")
    int attempts();

    /** Wait before the second attempt, doubled before each next one. */
    @WithDefault("PT1S")
    Duration backoff();
}
