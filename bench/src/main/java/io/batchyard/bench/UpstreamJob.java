package io.batchyard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.function.LongFunction;

/**
 * A job the client drives itself: a parent with three steps in a row. One lifecycle is InitJob, InitStep and HaltStep
 * of each step, HaltJob: eight committed transitions, whose HaltJob hands the run's target batch to the consumers.
 */
record UpstreamJob(long parent, List<Long> steps) {

    static final int TRANSITIONS_PER_LIFECYCLE = 8;

    static UpstreamJob register(Http http, String registry, long app) {
        long up = Bench.process(http, registry, app, 1, null, null, List.of());
        List<Long> steps = List.of(Bench.process(http, registry, app, 12, null, up, List.of()),
                Bench.process(http, registry, app, 12, null, up, List.of()),
                Bench.process(http, registry, app, 12, null, up, List.of()));
        Bench.link(http, registry, up, steps.get(0));
        Bench.link(http, registry, steps.get(0), steps.get(1));
        Bench.link(http, registry, steps.get(1), steps.get(2));
        Bench.link(http, registry, steps.get(2), up);
        return new UpstreamJob(up, steps);
    }

    /** The step whose link is registered last: once a service knows it, it knows the whole job. */
    long lastStep() {
        return steps.get(steps.size() - 1);
    }

    /**
     * Runs one lifecycle; HaltJob's batch marking is made from the run's target batch id. Returns that id. Each
     * InitJob's answer time goes to {@code initJobNanos}.
     */
    long runOnce(Http http, String execution, LongFunction<String> marking, Queue<Long> initJobNanos) {
        long asked = System.nanoTime();
        JsonNode init = http.expect(200, "POST", execution + "/jobs/" + parent + "/init", Map.of("maxBatch", 1));
        initJobNanos.add(System.nanoTime() - asked);
        long targetBatch = init.get("targetBatchId").asLong();
        for (long step : steps) {
            http.expect(200, "POST", execution + "/steps/" + step + "/init", null);
            http.expect(200, "POST", execution + "/steps/" + step + "/halt", null);
        }
        http.expect(200, "POST", execution + "/jobs/" + parent + "/halt",
                Map.of("batchMarking", marking.apply(targetBatch)));
        return targetBatch;
    }
}
