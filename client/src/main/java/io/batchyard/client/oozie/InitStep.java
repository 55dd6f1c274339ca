package io.batchyard.client.oozie;

import java.util.Map;

/** {@code InitStep --sub-process-id <step>}: the step starts; outputs {@code sub-instance-exec-id}, {@code sub-process-id}. */
public final class InitStep {

    private InitStep() {
    }

    public static void main(String[] args) {
        OozieAction.main("InitStep", args, InitStep::call);
    }

    /** The main without exiting: 0 or the exit status (see {@link OozieAction}). */
    public static int run(String[] args) {
        return OozieAction.run("InitStep", args, InitStep::call, System.err);
    }

    static Map<String, String> call(Args a, io.batchyard.client.BatchyardClient client) {
        var start = client.initStep(a.requiredLong("sub-process-id"));
        return Map.of("sub-instance-exec-id", String.valueOf(start.subInstanceExecId()),
                "sub-process-id", String.valueOf(start.subProcessId()));
    }
}
