package io.batchyard.execution.runner;

import java.util.List;

/** The run policy of one stand-alone parent (a row of runner_job plus its dependencies and schedule). */
public record RunnerJob(
        long processId,
        boolean enabled,
        String bucket,
        boolean batch,
        boolean exactMatch,
        Integer maxBatchSize,
        boolean retryFailed,
        Retry retry,
        Context context,
        int stepConcurrency,
        int timeoutSeconds,
        Hooks hooks,
        List<Dependency> dependencies,
        Schedule schedule) {

    /**
     * How a failed bucket is retried when {@link #retryFailed}: at most {@code maxAttempts} runs in all, the n-th
     * retry after {@code backoffSeconds} × 2^(n-1), capped at {@code maxBackoffSeconds}, of which a random half is
     * taken off (jitter, so that buckets failing together do not all come back in the same tick).
     */
    public record Retry(int maxAttempts, int backoffSeconds, int maxBackoffSeconds) {
        public static final Retry DEFAULT = new Retry(3, 30, 3600);
    }

    /** Extra options inserted before the bucket arguments: value, then file contents, then script output. */
    public record Context(String value, String file, String script) {
        public static final Context NONE = new Context(null, null, null);
    }

    /** OnInit / OnSuccess / OnError scripts. */
    public record Hooks(String onInit, String onSuccess, String onError) {
        public static final Hooks NONE = new Hooks(null, null, null);
    }

    /**
     * Same-bucket completion of another process, a check script, or both (the script then decides, with the parent
     * id as its second argument).
     */
    public record Dependency(Long processId, String script) {
    }

    /** Five crontab fields, evaluated in {@code timeZone}. */
    public record Schedule(String cron, String timeZone) {
    }
}
