package io.batchyard.client.oozie;

import java.util.Map;

/**
 * {@code TermJob --process-id <parent> [--code <n>] [--text <why>]}: the run failed; the next InitJob retries it from
 * the last recoverable step. The optional code and text are kept on the run as the reason.
 */
public final class TermJob {

    private TermJob() {
    }

    public static void main(String[] args) {
        OozieAction.main("TermJob", args, TermJob::call);
    }

    /** The main without exiting: 0 or the exit status (see {@link OozieAction}). */
    public static int run(String[] args) {
        return OozieAction.run("TermJob", args, TermJob::call, System.err);
    }

    static Map<String, String> call(Args a, io.batchyard.client.BatchyardClient client) {
        Long code = a.optionalLong("code");
        var ended = client.termJob(a.requiredLong("process-id"), code == null ? null : Math.toIntExact(code),
                a.optional("text"));
        return Map.of("instance-exec-id", String.valueOf(ended.instanceExecId()), "state", ended.state());
    }
}
