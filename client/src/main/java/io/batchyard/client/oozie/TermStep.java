package io.batchyard.client.oozie;

import java.util.Map;

/** {@code TermStep --sub-process-id <step>}: the step failed. */
public final class TermStep {

    private TermStep() {
    }

    public static void main(String[] args) {
        OozieAction.main("TermStep", args, TermStep::call);
    }

    /** The main without exiting: 0 or the exit status (see {@link OozieAction}). */
    public static int run(String[] args) {
        return OozieAction.run("TermStep", args, TermStep::call, System.err);
    }

    static Map<String, String> call(Args a, io.batchyard.client.BatchyardClient client) {
        long step = a.requiredLong("sub-process-id");
        client.termStep(step);
        return Map.of("termed-sub-process-id", String.valueOf(step));
    }
}
