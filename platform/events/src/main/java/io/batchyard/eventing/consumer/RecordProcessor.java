package io.batchyard.eventing.consumer;

import io.batchyard.eventing.Actor;
import io.batchyard.eventing.LogContext;
import io.batchyard.eventing.RecordBatch;
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
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
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
 * <p>A batch channel ({@code batch=true}) hands its batches to {@link #processBatch}, which keeps these guarantees
 * per record: the whole batch in one transaction, retried whole on a transient failure, and applied record by record
 * through the path above when it holds poison, or when it failed transiently {@value #SPLIT_AFTER_ATTEMPTS} times
 * (a large batch whose transaction cannot finish while connections keep dying still gets through, record by record).
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
    /** Attempts of a whole batch that failed transiently before its records are applied one by one. */
    static final int SPLIT_AFTER_ATTEMPTS = 3;
    /** The connector's header with the decoder's message, on a record that did not decode. */
    private static final String DESERIALIZATION_FAILURE_REASON = "deserialization-failure-reason";
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
        return Uni.createFrom().deferred(() -> processIn(consumer, context(message), message, effect, true))
                .replaceWithVoid();
    }

    /**
     * Applies a polled batch ({@code mp.messaging.incoming.<channel>.batch=true}) with the guarantees of
     * {@link #process}: {@code applyAll} applies every payload, in the batch's order, in one transaction; when it
     * succeeds the batch is acknowledged. A transient failure retries the whole batch, as {@link #process} retries a
     * record. When the batch holds an undecodable record, or {@code applyAll} fails with poison, the records are applied
     * one by one, in order, each as {@link #process} applies it with {@code applyOne} (so only the poison is
     * dead-lettered, and every other record is applied once: the batch's transaction rolled back); the batch's offsets
     * are committed once every record is applied or dead-lettered.
     *
     * <p>Every record still gets a processing span of its own and its MDC entries: around the whole of the batch, and,
     * while {@code applyAll} applies an event through {@link io.batchyard.eventing.ProcessedEventLedger#onceAll}, its
     * span is current and its entries are set (the {@link RecordBatch} carries each record's scope), so what the effect
     * appends continues the record's own trace.
     *
     * @param batch the message a batch channel's method takes: its {@link IncomingKafkaRecordBatchMetadata} holds the
     *              records, each a message of its own
     */
    public <T> Uni<Void> processBatch(String consumer, Message<List<T>> batch,
                                      Function<RecordBatch<T>, ? extends Uni<?>> applyAll,
                                      Function<? super T, ? extends Uni<?>> applyOne) {
        IncomingKafkaRecordBatchMetadata<?, ?> metadata = batch.getMetadata(IncomingKafkaRecordBatchMetadata.class)
                .orElseThrow(() -> new IllegalArgumentException("not a Kafka batch"));
        @SuppressWarnings("unchecked")
        List<Message<T>> records = (List<Message<T>>) (List<?>) metadata.getBatchedMessages();
        if (records.isEmpty()) {
            return Uni.createFrom().completionStage(batch::ack);
        }
        return Uni.createFrom().deferred(() -> {
            List<RecordContext> contexts = records.stream().map(this::context).toList();
            List<T> payloads = new ArrayList<>(records.size());
            records.forEach(record -> payloads.add(record.getPayload()));
            String what = "batch of " + records.size() + " record(s) from " + coordinates(records.get(0)) + " to "
                    + coordinates(records.get(records.size() - 1));
            Uni<Boolean> settled;
            if (payloads.contains(null)) {
                settled = oneByOne(consumer, metadata, records, contexts, applyOne);
            } else {
                RecordBatch<T> all = RecordBatch.scoped(payloads, contexts);
                Retry retry = new Retry(consumer, what, Vertx.currentContext(), records.size(),
                        () -> applyAll.apply(all),
                        () -> Uni.createFrom().completionStage(batch::ack)
                                .invoke(() -> meters(consumer).consumed.increment(records.size())),
                        (c, failure) -> {
                            LOG.infof("%s: %s not applied as one: %s; applying its records one by one", consumer,
                                    what, c.reason());
                            return oneByOne(consumer, metadata, records, contexts, applyOne);
                        });
                settled = attempt(retry, 1);
            }
            return settled.onTermination().invoke((ignored, failure, cancelled) ->
                            contexts.forEach(context -> context.end(failure)))
                    .replaceWithVoid();
        });
    }

    /**
     * The batch's records applied one after the other, each as {@link #process} applies it but without acknowledging
     * it on its own: in batch mode the connector tracks only each partition's last record of the batch, and an
     * earlier record's ack would stay in its bookkeeping for ever. Once every record is applied or dead-lettered the
     * last record of each partition is acknowledged (unless it was dead-lettered: the dead-letter queue acknowledged it
     * then), which commits the partition past the batch. Emits false when the application stopped meanwhile: the
     * batch is left unacknowledged and delivered again, and the ledger drops what was applied.
     */
    private <T> Uni<Boolean> oneByOne(String consumer, IncomingKafkaRecordBatchMetadata<?, ?> batch,
                                      List<Message<T>> records, List<RecordContext> contexts,
                                      Function<? super T, ? extends Uni<?>> applyOne) {
        Set<Message<?>> deadLettered = Collections.newSetFromMap(new IdentityHashMap<>());
        Uni<Boolean> chain = Uni.createFrom().item(Boolean.TRUE);
        for (int i = 0; i < records.size(); i++) {
            Message<T> record = records.get(i);
            RecordContext context = contexts.get(i);
            // Once one record is left for redelivery (shutdown), so are the ones behind it: the batch comes again.
            chain = chain.chain(settledSoFar -> !settledSoFar ? Uni.createFrom().item(false)
                    : processIn(consumer, context, record, applyOne, false).map(outcome -> {
                        if (outcome == Outcome.DEAD_LETTERED) {
                            deadLettered.add(record);
                        }
                        return outcome != Outcome.LEFT;
                    }));
        }
        return chain.chain(settled -> {
            if (!settled) {
                return Uni.createFrom().item(false);
            }
            Uni<Void> acks = Uni.createFrom().voidItem();
            for (Message<T> record : records) {
                if (isLastOfItsPartition(batch, record) && !deadLettered.contains(record)) {
                    acks = acks.chain(() -> Uni.createFrom().completionStage(record::ack));
                }
            }
            return acks.replaceWith(true);
        });
    }

    /** Whether {@code record} is the batch's last of its partition (the batch's offsets name those, not plus one). */
    private static boolean isLastOfItsPartition(IncomingKafkaRecordBatchMetadata<?, ?> batch, Message<?> record) {
        return record.getMetadata(IncomingKafkaRecordMetadata.class).map(k -> {
            OffsetAndMetadata last = batch.getOffsets().get(new TopicPartition(k.getTopic(), k.getPartition()));
            return last != null && last.offset() == k.getOffset();
        }).orElse(false);
    }

    /** What became of one record (or batch). */
    private enum Outcome {
        APPLIED, DEAD_LETTERED, LEFT
    }

    private <T> Uni<Outcome> processIn(String consumer, RecordContext context, Message<T> message,
                                       Function<? super T, ? extends Uni<?>> effect, boolean ack) {
        return context.around(() -> handle(consumer, message, context, effect, ack))
                .onTermination().invoke((ignored, failure, cancelled) -> context.end(failure));
    }

    private <T> Uni<Outcome> handle(String consumer, Message<T> message, RecordContext context,
                                    Function<? super T, ? extends Uni<?>> effect, boolean ack) {
        String where = coordinates(message);
        T payload = message.getPayload();
        if (payload == null) {
            return deadLetter(consumer, message, where, undecodable(message), null, context.span)
                    .replaceWith(Outcome.DEAD_LETTERED);
        }
        Retry retry = new Retry(consumer, payload.getClass().getSimpleName() + " at " + where, Vertx.currentContext(),
                1, () -> effect.apply(payload),
                () -> (ack ? Uni.createFrom().completionStage(message::ack) : Uni.createFrom().voidItem())
                        .invoke(() -> meters(consumer).consumed.increment()),
                (c, failure) -> deadLetter(consumer, message, where, c, failure, context.span)
                        .replaceWith(Boolean.TRUE));
        return attempt(retry, 1).map(settled -> !settled ? Outcome.LEFT
                : retry.poisoned ? Outcome.DEAD_LETTERED : Outcome.APPLIED);
    }

    /**
     * The classification of a record that did not decode. In batch mode the connector hands it over with a null
     * payload instead of dead-lettering it itself (only its single-record path does); its reason is the decoder's,
     * from the {@code deserialization-failure-reason} header, as the connector would have written it.
     */
    private static FailureClassifier.Classification undecodable(Message<?> message) {
        String reason = message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(k -> k.getHeaders().lastHeader(DESERIALIZATION_FAILURE_REASON))
                .filter(h -> h.value() != null)
                .map(h -> new String(h.value(), StandardCharsets.UTF_8))
                .orElse("undecodable record");
        return new FailureClassifier.Classification(FailureKind.INVALID, reason, null);
    }

    /** What {@link #process} and {@link #processBatch} know about one record: its header, span and log entries. */
    private RecordContext context(Message<?> message) {
        Object payload = message.getPayload();
        EventHeader header = payload instanceof SpecificRecord record && !record.getSchema().getFields().isEmpty()
                && record.get(0) instanceof EventHeader h ? h : null;
        Optional<IncomingKafkaRecordMetadata> kafka = message.getMetadata(IncomingKafkaRecordMetadata.class);
        String eventId = header != null ? header.getEventId() : eventIdHeader(kafka);
        Span span = processingSpan(kafka, eventId);
        return new RecordContext(header, span, LogContext.with(LogContext.EVENT_ID, eventId)
                .and(LogContext.RUN_ID, header != null ? header.getInstanceExecId() : null)
                .and(LogContext.PROCESS_ID, processId(kafka, payload))
                .and(LogContext.TRACE_ID, span.getSpanContext().getTraceId()));
    }

    /** One record's processing span and MDC entries; the span ends once, however often {@link #end} is called. */
    private static final class RecordContext implements RecordBatch.Scope {
        final EventHeader header;
        final Span span;
        final LogContext log;
        final AtomicBoolean ended = new AtomicBoolean();

        RecordContext(EventHeader header, Span span, LogContext log) {
            this.header = header;
            this.span = span;
            this.log = log;
        }

        /**
         * Runs {@code work} with the span current and the entries set. Current for the whole of it: Quarkus keeps it
         * in the record's duplicated context, which every asynchronous step of the effect runs on. Outside one (a
         * test calling this directly) there is nowhere to keep it; the span is still recorded.
         */
        @Override
        public <R> Uni<R> around(Supplier<? extends Uni<R>> work) {
            return Uni.createFrom().deferred(() -> {
                Scope current = VertxContext.isOnDuplicatedContext() ? span.makeCurrent() : Scope.noop();
                return log.<R>around(() -> {
                    if (header != null) {
                        // What the event leads to is done for whoever caused the event.
                        Actor.set(header.getActor());
                    }
                    return work.get();
                }).onTermination().invoke(current::close);
            });
        }

        void end(Throwable failure) {
            if (ended.compareAndSet(false, true)) {
                Trace.end(span, failure);
            }
        }
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

    /** Emits true once the work applied or was dead-lettered, false when it was left for redelivery. */
    private Uni<Boolean> attempt(Retry r, int attempt) {
        if (stopping.getCount() == 0) {
            return leaveForRedelivery(r.consumer, r.what, attempt - 1);
        }
        return Uni.createFrom().deferred(() -> r.work.get())
                .onItemOrFailure().transformToUni((ignored, failure) -> {
                    if (failure == null) {
                        if (attempt > 1) {
                            LOG.infof("%s: %s applied after %d attempts (%d ms)", r.consumer, r.what, attempt,
                                    System.currentTimeMillis() - r.firstFailure);
                        }
                        return r.applied.get().replaceWith(Boolean.TRUE);
                    }
                    FailureClassifier.Classification c = FailureClassifier.classify(failure);
                    if (c.kind().isPoison()) {
                        r.poisoned = true;
                        return r.poison.apply(c, failure);
                    }
                    if (r.records > 1 && attempt >= SPLIT_AFTER_ATTEMPTS) {
                        // A batch can fail transiently for ever while each record alone would apply: its transaction
                        // outlives what the database lets a connection live. Its records, one by one, each in a
                        // short transaction retried on its own, keep their order and the ledger's exactly-once.
                        meters(r.consumer).retried.increment(r.records);
                        return r.poison.apply(c, failure);
                    }
                    meters(r.consumer).retried.increment(r.records);
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

    /**
     * The retry state of a record or a batch: what an attempt runs, what follows when it applies or turns out to be
     * poison, its backoff and when its failures started (for the log lines).
     */
    private final class Retry {
        final String consumer;
        final String what;
        final Context context;
        /** Records the work covers: a transient failure counts as a retry of each. */
        final int records;
        final Supplier<? extends Uni<?>> work;
        final Supplier<Uni<Void>> applied;
        final BiFunction<FailureClassifier.Classification, Throwable, Uni<Boolean>> poison;
        boolean poisoned;
        long backoff = Math.max(1, initialBackoff.toMillis());
        long firstFailure;
        long lastLog;

        Retry(String consumer, String what, Context context, int records, Supplier<? extends Uni<?>> work,
              Supplier<Uni<Void>> applied, BiFunction<FailureClassifier.Classification, Throwable, Uni<Boolean>> poison) {
            this.consumer = consumer;
            this.what = what;
            this.context = context;
            this.records = records;
            this.work = work;
            this.applied = applied;
            this.poison = poison;
        }
    }

    private Uni<Boolean> leaveForRedelivery(String consumer, String what, int attempts) {
        LOG.infof("%s: shutting down; %s left unacknowledged after %d attempt(s), it is delivered again after restart",
                consumer, what, attempts);
        return Uni.createFrom().item(Boolean.FALSE);
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
