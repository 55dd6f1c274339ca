package io.batchyard.eventing;

import io.smallrye.mutiny.Uni;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jboss.logging.MDC;

/**
 * The MDC keys Batchyard's log lines carry while a consumed record or a lifecycle call is handled, so that a JSON log
 * line (or a pattern with {@code %X}) says which event, run, process and trace it belongs to.
 *
 * <p>On a Vert.x duplicated context, which every request and every consumed record gets, Quarkus keeps the MDC in the
 * context's locals rather than in the thread: interleaved work on one event-loop thread never sees each other's keys.
 * The keys are still restored when the work ends, because a caller may already have set them (a command's lifecycle
 * call runs inside the record that carried it) and because work outside such a context falls back to the thread.
 */
public final class LogContext {

    /** The consumed event's {@code header.eventId}. */
    public static final String EVENT_ID = "eventId";
    /** The run the work belongs to ({@code instanceExecId}). */
    public static final String RUN_ID = "runId";
    /** The process the work is about: a lifecycle call's pid, or the process a consumed record is keyed by. */
    public static final String PROCESS_ID = "processId";
    /** The trace id of the work: its current OpenTelemetry span's ({@link Trace#traceId()}). */
    public static final String TRACE_ID = "traceId";

    private final Map<String, Object> entries = new LinkedHashMap<>();

    private LogContext() {
    }

    /** A context with one entry; a null value is left out. */
    public static LogContext with(String key, Object value) {
        return new LogContext().and(key, value);
    }

    /** Adds an entry; a null value is left out (the key keeps whatever an enclosing context gave it). */
    public LogContext and(String key, Object value) {
        if (value != null) {
            entries.put(key, value);
        }
        return this;
    }

    /** Sets the entries now; running the result puts back what each key held before. */
    public Runnable apply() {
        Map<String, Object> previous = new LinkedHashMap<>();
        entries.forEach((key, value) -> previous.put(key, MDC.put(key, String.valueOf(value))));
        return () -> previous.forEach((key, value) -> {
            if (value == null) {
                MDC.remove(key);
            } else {
                MDC.put(key, value);
            }
        });
    }

    /** Subscribes to {@code work} with the entries set, and restores the keys however it ends. */
    public <T> Uni<T> around(Supplier<Uni<T>> work) {
        return Uni.createFrom().deferred(() -> {
            Runnable restore = apply();
            return Uni.createFrom().<T>deferred(work::get).onTermination().invoke(restore);
        });
    }
}
