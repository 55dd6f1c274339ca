package io.batchyard.client.oozie;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code InitJob --process-id <parent> [--max-batch <n>]}: starts (or retries) a run and hands every InitJob output
 * ({@code instance-exec-id}, {@code target-batch-id}, {@code last-recoverable-sp-id}, {@code min-batch-id-map.<step>},
 * …) to later nodes as {@code ${wf:actionData('init-job')[…]}}.
 */
public final class InitJob {

    private InitJob() {
    }

    public static void main(String[] args) {
        OozieAction.main("InitJob", args, InitJob::call);
    }

    /** The main without exiting: 0 or the exit status (see {@link OozieAction}). */
    public static int run(String[] args) {
        return OozieAction.run("InitJob", args, InitJob::call, System.err);
    }

    static Map<String, String> call(Args a, io.batchyard.client.BatchyardClient client) {
        Long maxBatch = a.optionalLong("max-batch");
        var start = client.initJob(a.requiredLong("process-id"), maxBatch == null ? null : Math.toIntExact(maxBatch));
        Map<String, String> out = new LinkedHashMap<>(start.outputs());
        out.putIfAbsent("instance-exec-id", String.valueOf(start.instanceExecId()));
        out.putIfAbsent("target-batch-id", String.valueOf(start.targetBatchId()));
        return out;
    }
}
