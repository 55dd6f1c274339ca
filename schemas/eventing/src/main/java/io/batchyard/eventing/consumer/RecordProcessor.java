package io.batchyard.eventing.consumer;

import io.batchyard.eventing.Actor;
import io.batchyard.eventing.LogContext;
import io.batchyard.eventing.Trace;
import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.Topics;
import io.batchyard.events.EventHeader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.smallrye.common.vertx.VertxContext;
import org.apache.avro.specific.SpecificRecord;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/**
 * The one way every {@code @Incoming} method applies a record. A transient failure ({@link FailureClassifier}) is
 * retried on the same record, with exponential backoff, for as long as it takes: the returned {@link Uni} does not
 * complete, so the partition does not move on and no offset is committed past the record. Each attempt subscribes to
 * the effect afresh, i.e. runs a fresh transaction, so the consumer's ledger keeps the effect exactly-once. Only poison
 * is dead-lettered, and with a {@link DeadLetterException} that carries nothing but the safe reason.
 *
 * <p>The waits between attempts are Vert.x timers that resume on the record's own context, so a retried effect runs
 * where the first attempt ran (Hibernate Reactive sessions are bound to it) and no thread is held while waiting.
 *
 * <p>When the application shuts down while a record is being retried, the record is left unacknowledged (neither
 * acked nor dead-lettered): its offset is not committed and it is delivered again after the restart.
 *
 * <p>Every record is processed in a span of its own (kind CONSUMER, {@code <topic> process}) whose parent is the span
 * its {@code traceparent} header names ({@link Trace}); a record without a valid one starts a trace. The span is current
 * for the whole processing, retries included: on the record's Vert.x duplicated context, where Quarkus keeps the
 * OpenTelemetry context, every step of the effect sees it, so the events the effect appends are published in it. It
 * ends when the record is applied, dead-lettered (in error) or left for redelivery. SmallRye's own tracing of the
 * channels is off, so that there is one processing span per record.
 *
 * <p>While a record is handled, its event id, run, process and trace are in the MDC ({@link LogContext}), so every
 * log line of its effect names them; they are removed when the record is done. Every consumer is counted the same
 * way: {@code batchyard.events.consumed}, {@code batchyard.events.dead.lettered} and {@code batchyard.events.retried},
 * tagged with the consumer's ledger name.
 *
 * <p>Usage, on a method that takes the whole message so that it decides ack and nack itself; the service method is
 * the transaction boundary and records the event in the ledger:
 * <pre>{@code
 * @Incoming("lifecycle")
 * public Uni<Void> consume(Message<SpecificRecord> record) {
 *     return records.process(CONSUMER, record, lifecycle::apply);
 * }}</pre>
 */
@ApplicationScoped
public class RecordProcessor {

    /** Dead-letter header with the failure's kind: {@code invalid} or {@code unexpected}. */
    public static final String CLASSIFICATION_HEADER = "dead-letter-classification";

    /** Records applied and acknowledged (duplicates the ledger dropped included), per consumer. */
    public static final String CONSUMED = "batchyard.events.consumed";
    /** Records sent to the consumer's dead-letter topic, per consumer. */
    public static final String DEAD_LETTERED = "batchyard.events.dead.lettered";
    /** Transient failures retried on the same record, per consumer. */
    public static final String RETRIED = "batchyard.events.retried";

    private static final Logger LOG = Logger.getLogger(RecordProcessor.class);
    private static final AttributeKey<String> PARTITION = AttributeKey.stringKey("messaging.destination.partition.id");
    private static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
    private static final int MAX_REASON = 500;
    /** Topics whose record key is a process id (schemas/README.md, "Topics"): the key names the record's process. */
    private static final Set<String> KEYED_BY_PROCESS = Set.of(Topics.REGISTRY_PROCESSES, Topics.EXECUTION_LIFECYCLE,
            Topics.EXECUTION_COMMANDS, Topics.EXECUTION_REJECTIONS, Topics.QUEUE_BATCHES, Topics.LINEAGE_QUERIES,
            Topics.LINEAGE_PARSED);

    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Duration logInterval;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final MeterRegistry meters;
    private final Tracer tracer;
    private final Map<String, ConsumerMeters> byConsumer = new ConcurrentHashMap<>();
    /** Pauses in progress, woken at once on shutdown so that their records are left for redelivery. */
    private final Map<Object, Runnable> waiting = new ConcurrentHashMap<>();

    public RecordProcessor(
            MeterRegistry meters,
            Tracer tracer,
            @ConfigProperty(name = "batchyard.consumer.retry.initial-backoff", defaultValue = "PT0.1S") Duration initialBackoff,
            @ConfigProperty(name = "batchyard.consumer.retry.max-backoff", defaultValue = "PT5S") Duration maxBackoff,
            @ConfigProperty(name = "batchyard.consumer.retry.log-interval", defaultValue = "PT30S") Duration logInterval) {
        this.meters = meters;
        this.tracer = tracer;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.logInterval = logInterval;
    }

    /**
     * Applies {@code effect} to the record's payload and acknowledges it, retrying transient failures; dead-letters a
     * record that can never succeed (an undecodable one arrives with a null payload).
     *
     * @param consumer the consumer's ledger name, for log lines
     */
    public <T> Uni<Void> process(String consumer, Message<T> message, Function<? super T, ? extends Uni<?>> effect) {
        T payload = message.getPayload();
        EventHeader header = payload instanceof SpecificRecord record && !record.getSchema().getFields().isEmpty()
                && record.get(0) instanceof EventHeader h ? h : null;
        Optional<IncomingKafkaRecordMetadata> kafka = message.getMetadata(IncomingKafkaRecordMetadata.class);
        String eventId = header != null ? header.getEventId() : eventIdHeader(kafka);
        return Uni.createFrom().deferred(() -> {
            Span span = processingSpan(kafka, eventId);
            // Current for the whole processing: Quarkus keeps it in the record's duplicated context, which every
            // asynchronous step of the effect runs on. Outside one (a test calling this directly) there is nowhere to
            // keep it; the span is still recorded.
            Scope current = VertxContext.isOnDuplicatedContext() ? span.makeCurrent() : Scope.noop();
            return LogContext.with(LogContext.EVENT_ID, eventId)
                    .and(LogContext.RUN_ID, header != null ? header.getInstanceExecId() : null)
                    .and(LogContext.PROCESS_ID, processId(kafka, payload))
                    .and(LogContext.TRACE_ID, span.getSpanContext().getTraceId())
                    .around(() -> handle(consumer, message, header, effect, span))
                    .onTermination().invoke((ignored, failure, cancelled) -> {
                        current.close();
                        Trace.end(span, failure);
                    });
        });
    }

    private <T> Uni<Void> handle(String consumer, Message<T> message, EventHeader header,
                                 Function<? super T, ? extends Uni<?>> effect, Span span) {
        String where = coordinates(message);
        T payload = message.getPayload();
        if (payload == null) {
            return deadLetter(consumer, message, where, new FailureClassifier.Classification(
                    FailureKind.INVALID, "undecodable record", null), null, span);
        }
        if (header != null) {
            // What the event leads to is done for whoever caused the event.
            Actor.set(header.getActor());
        }
        Retry<T> retry = new Retry<>(consumer, message, payload.getClass().getSimpleName() + " at " + where,
                effect, Vertx.currentContext(), span);
        retry.backoff = Math.max(1, initialBackoff.toMillis());
        return attempt(retry, 1);
    }

    /** The record's processing span, a child of the one its {@code traceparent} header names. */
    private Span processingSpan(Optional<IncomingKafkaRecordMetadata> kafka, String eventId) {
        String traceparent = kafka.map(k -> k.getHeaders().lastHeader(RecordHeaders.TRACEPARENT))
                .filter(h -> h.value() != null)
                .map(h -> new String(h.value(), StandardCharsets.UTF_8))
                .orElse(null);
        Span span = Trace.startMessagingSpan(tracer, SpanKind.CONSUMER,
                kafka.map(IncomingKafkaRecordMetadata::getTopic).orElse(null), "process", traceparent, eventId);
        kafka.ifPresent(k -> span.setAttribute(PARTITION, String.valueOf(k.getPartition()))
                .setAttribute(OFFSET, k.getOffset()));
        return span;
    }

    private <T> Uni<Void> attempt(Retry<T> r, int attempt) {
        if (stopping.getCount() == 0) {
            return leaveForRedelivery(r.consumer, r.what, attempt - 1);
        }
        return Uni.createFrom().deferred(() -> r.effect.apply(r.message.getPayload()))
                .onItemOrFailure().transformToUni((ignored, failure) -> {
                    if (failure == null) {
                        if (attempt > 1) {
                            LOG.infof("%s: %s applied after %d attempts (%d ms)", r.consumer, r.what, attempt,
                                    System.currentTimeMillis() - r.firstFailure);
                        }
                        return Uni.createFrom().completionStage(r.message::ack)
                                .invoke(() -> meters(r.consumer).consumed.increment());
                    }
                    FailureClassifier.Classification c = FailureClassifier.classify(failure);
                    if (c.kind().isPoison()) {
                        return deadLetter(r.consumer, r.message, r.what, c, failure, r.span);
                    }
                    meters(r.consumer).retried.increment();
                    long now = System.currentTimeMillis();
                    if (attempt == 1) {
                        r.firstFailure = now;
                        r.lastLog = now;
                        LOG.warnf("%s: %s not applied: %s (%s); retrying with backoff up to %d ms until it succeeds",
                                r.consumer, r.what, c.reason(), c.detail(), maxBackoff.toMillis());
                    } else if (now - r.lastLog >= logInterval.toMillis()) {
                        r.lastLog = now;
                        LOG.warnf("%s: %s still not applied after %d attempts over %d s: %s (%s)", r.consumer, r.what,
                                attempt, (now - r.firstFailure) / 1000, c.reason(), c.detail());
                    }
                    long backoff = r.backoff;
                    r.backoff = Math.min(backoff * 2, Math.max(1, maxBackoff.toMillis()));
                    return pause(r.context, backoff).chain(go -> go ? attempt(r, attempt + 1)
                            : leaveForRedelivery(r.consumer, r.what, attempt));
                });
    }

    /** The counters of one consumer, registered at its first record. */
    private ConsumerMeters meters(String consumer) {
        return byConsumer.computeIfAbsent(consumer, c -> new ConsumerMeters(
                Counter.builder(CONSUMED).tag("consumer", c)
                        .description("Records applied and acknowledged, duplicate deliveries included")
                        .register(meters),
                Counter.builder(DEAD_LETTERED).tag("consumer", c)
                        .description("Records that can never apply, sent to the consumer's dead-letter topic")
                        .register(meters),
                Counter.builder(RETRIED).tag("consumer", c)
                        .description("Transient failures retried on the same record")
                        .register(meters)));
    }

    private record ConsumerMeters(Counter consumed, Counter deadLettered, Counter retried) {
    }

    void stop(@Observes @Priority(1) ShutdownEvent ignored) {
        stopping.countDown();
        waiting.values().forEach(Runnable::run);
    }

    /**
     * Waits before the next attempt and resumes on {@code context} (or a Mutiny worker when the record has none);
     * emits false when the application is stopping.
     */
    private Uni<Boolean> pause(Context context, long millis) {
        if (context == null) {
            return Uni.createFrom().item(Boolean.TRUE).onItem().delayIt().by(Duration.ofMillis(millis))
                    .map(ignored -> stopping.getCount() != 0);
        }
        return Uni.createFrom().emitter(emitter -> {
            Object key = new Object();
            AtomicBoolean resumed = new AtomicBoolean();
            Runnable resume = () -> {
                if (resumed.compareAndSet(false, true)) {
                    waiting.remove(key);
                    context.runOnContext(v -> emitter.complete(stopping.getCount() != 0));
                }
            };
            waiting.put(key, resume);
            if (stopping.getCount() == 0) {
                resume.run();
                return;
            }
            context.owner().setTimer(millis, id -> resume.run());
        });
    }

    /** One record's retry state: its backoff and when its failures started, for the log lines. */
    private static final class Retry<T> {
        final String consumer;
        final Message<T> message;
        final String what;
        final Function<? super T, ? extends Uni<?>> effect;
        final Context context;
        final Span span;
        long backoff;
        long firstFailure;
        long lastLog;

        Retry(String consumer, Message<T> message, String what, Function<? super T, ? extends Uni<?>> effect,
              Context context, Span span) {
            this.consumer = consumer;
            this.message = message;
            this.what = what;
            this.effect = effect;
            this.context = context;
            this.span = span;
        }
    }

    private Uni<Void> leaveForRedelivery(String consumer, String what, int attempts) {
        LOG.infof("%s: shutting down; %s left unacknowledged after %d attempt(s), it is delivered again after restart",
                consumer, what, attempts);
        return Uni.createFrom().voidItem();
    }

    private Uni<Void> deadLetter(String consumer, Message<?> message, String what,
                                 FailureClassifier.Classification c, Throwable failure, Span span) {
        meters(consumer).deadLettered.increment();
        String reason = c.reason().length() > MAX_REASON ? c.reason().substring(0, MAX_REASON) + "..." : c.reason();
        span.setStatus(StatusCode.ERROR, "dead-lettered: " + reason);
        if (c.kind() == FailureKind.UNEXPECTED) {
            LOG.errorf(failure, "%s: %s dead-lettered after an unexpected failure: %s", consumer, what, reason);
        } else {
            LOG.warnf("%s: %s dead-lettered: %s%s", consumer, what, reason,
                    failure == null || reason.endsWith(c.detail()) ? "" : " (" + c.detail() + ")");
        }
        String kind = c.kind().name().toLowerCase(Locale.ROOT);
        Metadata headers = Metadata.of(OutgoingKafkaRecordMetadata.builder()
                .addHeaders(new RecordHeader(CLASSIFICATION_HEADER, kind.getBytes(StandardCharsets.UTF_8))).build());
        return Uni.createFrom().completionStage(() -> message.nack(new DeadLetterException(c.kind(), reason), headers));
    }

    /**
     * The process a record is about: its key on a topic keyed by process id, else the event's own
     * {@code processId} or {@code parentProcessId}; null when neither names one (an undecodable record on another
     * topic, a record keyed by a table).
     */
    private static Object processId(Optional<IncomingKafkaRecordMetadata> kafka, Object payload) {
        Object key = kafka.filter(k -> KEYED_BY_PROCESS.contains(k.getTopic())).map(IncomingKafkaRecordMetadata::getKey)
                .orElse(null);
        if (key != null && key.toString().matches("\\d{1,19}")) {
            return key;
        }
        if (payload instanceof SpecificRecord record) {
            for (String name : new String[] {"processId", "parentProcessId"}) {
                Schema.Field field = record.getSchema().getField(name);
                if (field != null && record.get(field.pos()) instanceof Long id) {
                    return id;
                }
            }
        }
        return null;
    }

    /** The relay's {@code event-id} record header (16 raw UUID bytes), for a record whose value did not decode. */
    private static String eventIdHeader(Optional<IncomingKafkaRecordMetadata> kafka) {
        Header id = kafka.map(k -> k.getHeaders().lastHeader("event-id")).orElse(null);
        if (id == null || id.value() == null || id.value().length != 16) {
            return null;
        }
        ByteBuffer bytes = ByteBuffer.wrap(id.value());
        return new UUID(bytes.getLong(), bytes.getLong()).toString();
    }

    private static String coordinates(Message<?> message) {
        return message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(m -> m.getTopic() + "-" + m.getPartition() + "@" + m.getOffset())
                .orElse("(no Kafka metadata)");
    }
}
