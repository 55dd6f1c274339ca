package io.batchyard.eventing;

import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.TraceParent;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;

/**
 * The OpenTelemetry side of an event's way through Kafka. A trace crosses the broker as a W3C {@code traceparent}
 * value ({@link RecordHeaders#TRACEPARENT}): {@link Outbox} stores the current span's with every event, the relay
 * publishes each record in a span of its own whose parent is that value and sends the span's in the record's header,
 * and {@code RecordProcessor} processes the record in a span whose parent is the header's. What a service does over
 * HTTP is traced by Quarkus, which continues an incoming {@code traceparent} header by itself.
 */
public final class Trace {

    // The messaging attributes of OpenTelemetry's semantic conventions (only in its incubating artifact so far).
    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");

    /** Reads a stored or received {@code traceparent} value as the only header of a carrier. */
    private static final TextMapGetter<String> TRACEPARENT = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(RecordHeaders.TRACEPARENT);
        }

        @Override
        public String get(String carrier, String key) {
            return RecordHeaders.TRACEPARENT.equals(key) ? carrier : null;
        }
    };

    private Trace() {
    }

    /** The trace id of the current span, for log lines ({@link LogContext#TRACE_ID}); null when no span is current. */
    public static String traceId() {
        SpanContext current = Span.current().getSpanContext();
        return current.isValid() ? current.getTraceId() : null;
    }

    /** A span's context as a {@code traceparent} value: {@code 00-<trace id>-<span id>-<flags>}. */
    static String traceparent(SpanContext span) {
        return new TraceParent(span.getTraceId(), span.getSpanId(), span.getTraceFlags().asHex()).toString();
    }

    /**
     * Starts the span in which a record is published or processed, named {@code <topic> <operation>}. Its parent is the
     * span a {@code traceparent} value names; without a valid one it starts a trace.
     *
     * @param topic     the record's topic; null when unknown
     * @param messageId the event's id; null when unknown
     */
    public static Span startMessagingSpan(Tracer tracer, SpanKind kind, String topic, String operation,
                                          String traceparent, String messageId) {
        var span = tracer.spanBuilder(topic == null ? operation : topic + " " + operation)
                .setSpanKind(kind)
                .setParent(parent(traceparent))
                .setAttribute(SYSTEM, "kafka");
        if (topic != null) {
            span.setAttribute(DESTINATION, topic);
        }
        if (messageId != null) {
            span.setAttribute(MESSAGE_ID, messageId);
        }
        return span.startSpan();
    }

    /** Ends {@code span}, in error when {@code failure} is not null. */
    public static void end(Span span, Throwable failure) {
        if (failure != null) {
            span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName() + ": " + failure.getMessage());
        }
        span.end();
    }

    /** The context whose span is the remote one {@code traceparent} names; the root context for an invalid value. */
    private static Context parent(String traceparent) {
        if (traceparent == null) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, TRACEPARENT);
    }
}
