package io.batchyard.eventing;

import io.batchyard.schemas.TraceParent;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;

/**
 * The trace the work on the current Vert.x context belongs to, like {@link Actor}: taken from the HTTP call's
 * {@code traceparent} header or from the consumed record's, else started by the first event the work appends. Every
 * event {@link Outbox} appends gets a span of this trace, which the relay sends as the record's {@code traceparent}.
 */
public final class Trace {

    private static final String KEY = "batchyard.trace";

    private Trace() {
    }

    /** Continues the trace of an incoming {@code traceparent} header value; an invalid or absent value is ignored. */
    public static void continueFrom(String traceparent) {
        TraceParent.parse(traceparent).ifPresent(parent -> {
            if (VertxContext.isOnDuplicatedContext()) {
                ContextLocals.put(KEY, parent);
            }
        });
    }

    /** A span for one more event of the current work: in its trace, or in a new one that the rest of the work shares. */
    static TraceParent nextSpan() {
        if (!VertxContext.isOnDuplicatedContext()) {
            return TraceParent.root();
        }
        return current().child();
    }

    /**
     * The trace id of the current work, for its log lines ({@link LogContext#TRACE_ID}): the continued trace, or the
     * one the work's events will be published in, started now if the work has none yet. Null outside a Vert.x
     * duplicated context, where no trace is kept.
     */
    public static String traceId() {
        return VertxContext.isOnDuplicatedContext() ? current().traceId() : null;
    }

    private static TraceParent current() {
        TraceParent current = ContextLocals.<TraceParent>get(KEY).orElse(null);
        if (current == null) {
            current = TraceParent.root();
            ContextLocals.put(KEY, current);
        }
        return current;
    }
}
