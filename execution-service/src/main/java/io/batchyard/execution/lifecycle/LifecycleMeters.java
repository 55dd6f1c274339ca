package io.batchyard.execution.lifecycle;

import io.batchyard.api.ApiException;
import io.batchyard.eventing.LogContext;
import io.batchyard.eventing.Trace;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * How the lifecycle calls end, as meters: {@code batchyard.lifecycle.transitions} by call and outcome ({@code ok} or
 * {@code rejected}), and {@code batchyard.lifecycle.rejections} by the public code that refused the call. Every call's
 * log lines carry the process it names and its trace ({@link LogContext}).
 *
 * <p>A call counts when its checks and writes are done, in the call's transaction: a command whose transaction then
 * rolls back still counted its call, and a commit that fails after an {@code ok} is not taken back. A call that fails
 * otherwise (the database or queue-service unavailable, a bug) was never decided and is counted as neither. The
 * transition series exist from the start, at 0, so that a rate over them is defined before the first call.
 */
@Startup
@ApplicationScoped
public class LifecycleMeters {

    public static final String TRANSITIONS = "batchyard.lifecycle.transitions";
    public static final String REJECTIONS = "batchyard.lifecycle.rejections";
    /** The six calls, under the reference's names. */
    public static final List<String> CALLS = List.of("InitJob", "InitStep", "HaltStep", "TermStep", "HaltJob", "TermJob");

    private final MeterRegistry meters;
    private final Map<String, Counter> ok = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<Integer, Counter> rejections = new ConcurrentHashMap<>();

    public LifecycleMeters(MeterRegistry meters) {
        this.meters = meters;
        for (String call : CALLS) {
            ok.put(call, transitions(call, "ok"));
            rejected.put(call, transitions(call, "rejected"));
        }
    }

    /** Runs {@code call} on process {@code processId} with both in the log context, and counts how it ends. */
    <T> Uni<T> observe(String call, long processId, Supplier<Uni<T>> work) {
        return LogContext.with(LogContext.PROCESS_ID, processId).and(LogContext.TRACE_ID, Trace.traceId())
                .around(work)
                .invoke(() -> ok.get(call).increment())
                .onFailure(ApiException.class).invoke(e -> {
                    ApiException refused = (ApiException) e;
                    if (refused.status() < 500) {
                        rejected.get(call).increment();
                        rejections.computeIfAbsent(refused.code(), code -> Counter.builder(REJECTIONS)
                                .tag("code", String.valueOf(code))
                                .description("Lifecycle calls refused, by the public code of the refusal")
                                .register(meters)).increment();
                    }
                });
    }

    private Counter transitions(String call, String outcome) {
        return Counter.builder(TRANSITIONS).tag("call", call).tag("outcome", outcome)
                .description("Lifecycle calls decided, by call and outcome").register(meters);
    }
}
