package io.batchyard.client.oozie;

import java.util.Map;

/**
 * {@code HaltJob --process-id <parent> [--batch-marking <marking>]}: the run completed; its target batch goes
 * downstream with the marking (init-job's {@code target-batch-marking}; empty or {@code null} means none).
 */
public final class HaltJob {

    private HaltJob() {
    }

    public static void main(String[] args) {
        OozieAction.main("HaltJob", args, HaltJob::call);
    }

    /** The main without exiting: 0 or the exit status (see {@link OozieAction}). */
    public static int run(String[] args) {
        return OozieAction.run("HaltJob", args, HaltJob::call, System.err);
    }

    static Map<String, String> call(Args a, io.batchyard.client.BatchyardClient client) {
        var ended = client.haltJob(a.requiredLong("process-id"), a.optional("batch-marking"));
        return Map.of("instance-exec-id", String.valueOf(ended.instanceExecId()), "state", ended.state());
    }
}
