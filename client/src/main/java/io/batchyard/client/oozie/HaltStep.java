package io.batchyard.client.oozie;

import java.util.Map;
import java.util.stream.Collectors;

/** {@code HaltStep --sub-process-id <step>[,<step>…]}: the steps completed (a join's halt names every joined step). */
public final class HaltStep {

    private HaltStep() {
    }

    public static void main(String[] args) {
        OozieAction.main("HaltStep", args, HaltStep::call);
    }

    /** The main without exiting: 0 or the exit status (see {@link OozieAction}). */
    public static int run(String[] args) {
        return OozieAction.run("HaltStep", args, HaltStep::call, System.err);
    }

    static Map<String, String> call(Args a, io.batchyard.client.BatchyardClient client) {
        var halted = client.haltSteps(a.requiredLongs("sub-process-id"));
        return Map.of("halted-sub-process-ids", halted.stream().map(String::valueOf).collect(Collectors.joining(",")));
    }
}
