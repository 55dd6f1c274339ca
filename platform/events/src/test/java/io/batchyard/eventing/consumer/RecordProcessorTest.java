package io.batchyard.eventing.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.eventing.LogContext;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.TraceParent;
import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.Topics;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import java.util.LinkedHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.MDC;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;

/** What the processor does with one message: retry, ack, dead-letter, or leave it for redelivery. */
class RecordProcessorTest {

    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final RecordProcessor processor = new RecordProcessor(meters,
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build().get("test"),
            Duration.ofMillis(5), Duration.ofMillis(40), Duration.ofSeconds(30));

    /** A message that records whether it was acked or nacked, and with what. */
    private static final class Tracked {
        final AtomicInteger acks = new AtomicInteger();
        final List<Throwable> nacks = new ArrayList<>();
        final List<Metadata> nackMetadata = new ArrayList<>();
        final Message<String> message;

        Tracked(String payload) {
            message = Message.of(payload, metadata -> {
                acks.incrementAndGet();
                return CompletableFuture.completedFuture(null);
            }, (reason, metadata) -> {
                nacks.add(reason);
                nackMetadata.add(metadata);
                return CompletableFuture.completedFuture(null);
            });
        }
    }

    private static void await(Uni<Void> processing) {
        processing.await().atMost(Duration.ofSeconds(10));
    }

    /** An effect that fails by throwing, the way a statement that fails on its first step does. */
    private static Function<String, Uni<Void>> effect(Consumer<String> body) {
        return payload -> {
            body.accept(payload);
            return Uni.createFrom().voidItem();
        };
    }

    @Test
    void aTransientFailureIsRetriedOnTheSameRecordUntilItApplies() throws Exception {
        Tracked t = new Tracked("JobHalted 1");
        AtomicInteger attempts = new AtomicInteger();
        await(processor.process("test", t.message, effect(payload -> {
            if (attempts.incrementAndGet() <= 4) {
                throw new IllegalStateException("tx", new SQLException("An I/O error occurred", "08006"));
            }
        })));
        assertThat(attempts).hasValue(5);
        assertThat(t.acks).hasValue(1);
        assertThat(t.nacks).isEmpty();
        assertThat(count(RecordProcessor.RETRIED, "test")).isEqualTo(4);
        assertThat(count(RecordProcessor.CONSUMED, "test")).isEqualTo(1);
    }

    @Test
    void poisonIsNackedWithOnlyTheSafeReasonAndItsClassification() throws Exception {
        Tracked invalid = new Tracked("JobHalted 2");
        AtomicInteger attempts = new AtomicInteger();
        await(processor.process("test", invalid.message, effect(payload -> {
            attempts.incrementAndGet();
            throw new InvalidEventException("run 42 has no claim for batch 7");
        })));
        assertThat(attempts).hasValue(1);
        assertThat(invalid.acks).hasValue(0);
        Throwable reason = invalid.nacks.get(0);
        assertThat(reason).isInstanceOf(DeadLetterException.class).hasMessage("invalid event: run 42 has no claim for batch 7")
                .hasNoCause();
        assertThat(reason.getStackTrace()).isEmpty();
        assertThat(classificationHeader(invalid.nackMetadata.get(0))).isEqualTo("invalid");

        Tracked integrity = new Tracked("JobHalted 3");
        await(processor.process("test", integrity.message, effect(payload -> {
            throw new IllegalStateException("INSERT INTO batch VALUES (:id) arguments:{id:4711}",
                    new SQLException("duplicate key (batch_id)=(4711)", "23505"));
        })));
        assertThat(integrity.nacks.get(0)).hasMessage("integrity constraint violated (SQL state 23505)").hasNoCause();

        Tracked bug = new Tracked("JobHalted 4");
        await(processor.process("test", bug.message, effect(payload -> {
            throw new NullPointerException("field x of 4711");
        })));
        assertThat(bug.nacks.get(0)).hasMessage("unexpected failure (NullPointerException)");
        assertThat(classificationHeader(bug.nackMetadata.get(0))).isEqualTo("unexpected");
        assertThat(count(RecordProcessor.DEAD_LETTERED, "test")).isEqualTo(3);
        assertThat(count(RecordProcessor.CONSUMED, "test")).isZero();
    }

    @Test
    void anUndecodableRecordIsDeadLetteredWithoutRunningTheEffect() throws Exception {
        Tracked t = new Tracked(null);
        Consumer<String> effect = payload -> {
            throw new AssertionError("must not run");
        };
        await(processor.process("test", t.message, effect(effect)));
        assertThat(t.nacks).singleElement().satisfies(r -> assertThat(r).hasMessage("undecodable record"));
    }

    @Test
    void shuttingDownLeavesARetriedRecordNeitherAckedNorDeadLettered() throws Exception {
        Tracked t = new Tracked("JobHalted 5");
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<Void> done = CompletableFuture.supplyAsync(() -> processor.process("test", t.message,
                effect(payload -> {
                    attempts.incrementAndGet();
                    throw new RuntimeException(new SQLException("the database system is starting up", "57P03"));
                })).subscribeAsCompletionStage()).thenCompose(stage -> stage);
        Thread.sleep(300);
        assertThat(done).isNotDone();
        processor.stop(null);
        done.get(5, TimeUnit.SECONDS);
        assertThat(attempts.get()).isGreaterThan(1);
        assertThat(t.acks).hasValue(0);
        assertThat(t.nacks).isEmpty();

        // once stopping, a record that arrives is not even tried: it is redelivered after the restart
        Tracked late = new Tracked("JobHalted 6");
        await(processor.process("test", late.message, effect(payload -> {
            throw new AssertionError("must not run");
        })));
        assertThat(late.acks).hasValue(0);
        assertThat(late.nacks).isEmpty();
    }

    @Test
    void everyRecordIsProcessedInASpanOfItsOwnThatContinuesTheTraceOfItsHeader() {
        TraceParent caller = TraceParent.root();
        JobHalted applied = halted();
        await(processor.process("test", lifecycleRecord(applied, caller.toString(), new AtomicInteger()),
                payload -> Uni.createFrom().voidItem()));
        JobHalted poison = halted();
        await(processor.process("test", lifecycleRecord(poison, null, new AtomicInteger()), payload -> {
            throw new InvalidEventException("run 7001 has no claim for batch 9");
        }));

        assertThat(spans.getFinishedSpanItems()).hasSize(2).allSatisfy(span -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(span.getName()).isEqualTo(Topics.EXECUTION_LIFECYCLE + " process");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("kafka");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")))
                    .isEqualTo(Topics.EXECUTION_LIFECYCLE);
        });
        SpanData continued = spanOf(applied);
        assertThat(continued.getTraceId()).isEqualTo(caller.traceId());
        assertThat(continued.getParentSpanId()).isEqualTo(caller.spanId());
        assertThat(continued.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        SpanData deadLettered = spanOf(poison);
        assertThat(deadLettered.getParentSpanContext().isValid()).as("a record without a traceparent starts a trace")
                .isFalse();
        assertThat(deadLettered.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(deadLettered.getStatus().getDescription()).contains("run 7001 has no claim for batch 9");
    }

    @Test
    void theRecordsEventRunProcessAndTraceAreInTheMdcWhileItIsHandledAndRestoredAfter() throws Exception {
        JobHalted event = halted();
        TraceParent caller = TraceParent.root();
        AtomicInteger acks = new AtomicInteger();
        Message<Object> message = lifecycleRecord(event, caller.toString(), acks);
        Map<String, Object> seen = new HashMap<>();
        Vertx vertx = Vertx.vertx();
        try {
            // Every record is handled on a duplicated context of its own, where the trace is kept.
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            CompletableFuture<Map<String, Object>> after = new CompletableFuture<>();
            context.runOnContext(ignored -> {
                // What the thread held before the record (here: an enclosing process) comes back afterwards.
                MDC.put(LogContext.PROCESS_ID, "enclosing");
                processor.process("test", message, payload -> {
                    for (String key : List.of(LogContext.EVENT_ID, LogContext.RUN_ID, LogContext.PROCESS_ID,
                            LogContext.TRACE_ID)) {
                        seen.put(key, MDC.get(key));
                    }
                    return Uni.createFrom().voidItem();
                }).subscribe().with(done -> {
                    Map<String, Object> left = new HashMap<>();
                    for (String key : List.of(LogContext.EVENT_ID, LogContext.RUN_ID, LogContext.PROCESS_ID,
                            LogContext.TRACE_ID)) {
                        left.put(key, MDC.get(key));
                    }
                    MDC.remove(LogContext.PROCESS_ID);
                    after.complete(left);
                }, after::completeExceptionally);
            });
            Map<String, Object> left = after.get(10, TimeUnit.SECONDS);

            assertThat(acks).hasValue(1);
            assertThat(seen).containsEntry(LogContext.EVENT_ID, Events.headerOf(event).getEventId())
                    .containsEntry(LogContext.RUN_ID, "7001")
                    .containsEntry(LogContext.PROCESS_ID, "4711")
                    .containsEntry(LogContext.TRACE_ID, caller.traceId());
            assertThat(left).containsEntry(LogContext.PROCESS_ID, "enclosing")
                    .containsEntry(LogContext.EVENT_ID, null)
                    .containsEntry(LogContext.RUN_ID, null)
                    .containsEntry(LogContext.TRACE_ID, null);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** A polled batch as the connector hands it over: each record a message of its own, acked or nacked alone. */
    private static final class Polled {
        final List<Message<Object>> records = new ArrayList<>();
        final Map<Long, Integer> acks = new HashMap<>();
        final Map<Long, Throwable> nacks = new HashMap<>();
        final AtomicInteger batchAcks = new AtomicInteger();
        private final Map<TopicPartition, List<ConsumerRecord<String, Object>>> byPartition = new LinkedHashMap<>();

        /** Adds a record at {@code partition}@{@code offset} (offsets are unique across partitions in these tests). */
        Polled add(int partition, long offset, Object payload, String traceparent) {
            ConsumerRecord<String, Object> record = new ConsumerRecord<>(Topics.EXECUTION_LIFECYCLE, partition, offset,
                    "4711", payload);
            if (traceparent != null) {
                record.headers().add(RecordHeaders.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
            }
            if (payload == null) {
                record.headers().add("deserialization-failure-reason",
                        "neither a registry record nor a single-object encoded one".getBytes(StandardCharsets.UTF_8));
            }
            byPartition.computeIfAbsent(new TopicPartition(record.topic(), partition), p -> new ArrayList<>()).add(record);
            records.add(Message.of(payload, Metadata.of(new IncomingKafkaRecordMetadata<>(record, "lifecycle")),
                    metadata -> {
                        acks.merge(offset, 1, Integer::sum);
                        return CompletableFuture.completedFuture(null);
                    }, (reason, metadata) -> {
                        nacks.put(offset, reason);
                        return CompletableFuture.completedFuture(null);
                    }));
            return this;
        }

        Message<List<Object>> message() {
            Map<TopicPartition, OffsetAndMetadata> last = new HashMap<>();
            byPartition.forEach((partition, list) -> last.put(partition,
                    new OffsetAndMetadata(list.get(list.size() - 1).offset())));
            List<Message<?>> batched = new ArrayList<>(records);
            List<Object> payloads = new ArrayList<>();
            records.forEach(r -> payloads.add(r.getPayload()));
            return Message.of(payloads, Metadata.of(new IncomingKafkaRecordBatchMetadata<>(
                    new ConsumerRecords<>(byPartition), batched, "lifecycle", 0, last, 1)), metadata -> {
                        batchAcks.incrementAndGet();
                        return CompletableFuture.completedFuture(null);
                    }, (reason, metadata) -> {
                        throw new AssertionError("a batch is never nacked: every record of it would be dead-lettered");
                    });
        }
    }

    @Test
    void aBatchAppliesAsOneAndEveryRecordKeepsItsSpanAndLogContext() {
        TraceParent first = TraceParent.root();
        TraceParent second = TraceParent.root();
        JobHalted a = halted();
        JobHalted b = halted();
        Polled polled = new Polled().add(0, 10, a, first.toString()).add(0, 11, b, second.toString());
        List<List<Object>> applied = new ArrayList<>();
        List<String> eventIds = new ArrayList<>();
        await(processor.processBatch("test", polled.message(), all -> {
            applied.add(List.copyOf(all.payloads()));
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (int i = 0; i < all.size(); i++) {
                int index = i;
                chain = chain.chain(() -> all.around(index, () -> {
                    eventIds.add(MDC.get(LogContext.EVENT_ID) + "/" + MDC.get(LogContext.TRACE_ID));
                    return Uni.createFrom().voidItem();
                }));
            }
            return chain;
        }, one -> {
            throw new AssertionError("the batch applied as one");
        }));

        assertThat(applied).containsExactly(List.of(a, b));
        assertThat(eventIds).containsExactly(Events.headerOf(a).getEventId() + "/" + first.traceId(),
                Events.headerOf(b).getEventId() + "/" + second.traceId());
        assertThat(MDC.get(LogContext.EVENT_ID)).isNull();
        assertThat(polled.batchAcks).hasValue(1);
        assertThat(polled.acks).isEmpty();
        assertThat(polled.nacks).isEmpty();
        assertThat(count(RecordProcessor.CONSUMED, "test")).isEqualTo(2);
        assertThat(spans.getFinishedSpanItems()).hasSize(2);
        assertThat(spanOf(a).getParentSpanId()).isEqualTo(first.spanId());
        assertThat(spanOf(b).getParentSpanId()).isEqualTo(second.spanId());
    }

    @Test
    void aTransientFailureRetriesTheWholeBatchUntilItApplies() {
        Polled polled = new Polled().add(0, 10, halted(), null).add(0, 11, halted(), null).add(0, 12, halted(), null);
        AtomicInteger attempts = new AtomicInteger();
        await(processor.processBatch("test", polled.message(), all -> {
            if (attempts.incrementAndGet() <= 2) {
                throw new IllegalStateException("tx", new SQLException("An I/O error occurred", "08006"));
            }
            return Uni.createFrom().voidItem();
        }, one -> {
            throw new AssertionError("two transient failures do not split the batch");
        }));
        assertThat(attempts).hasValue(3);
        assertThat(polled.batchAcks).hasValue(1);
        assertThat(polled.nacks).isEmpty();
        // each record of the batch was retried twice
        assertThat(count(RecordProcessor.RETRIED, "test")).isEqualTo(6);
        assertThat(count(RecordProcessor.CONSUMED, "test")).isEqualTo(3);
    }

    @Test
    void aBatchThatKeepsFailingTransientlyIsAppliedRecordByRecordInOrderEachRetriedAlone() {
        JobHalted a = halted(), b = halted(), c = halted();
        Polled polled = new Polled().add(0, 10, a, null).add(0, 11, b, null).add(1, 20, c, null);
        AtomicInteger wholeAttempts = new AtomicInteger();
        AtomicInteger bAttempts = new AtomicInteger();
        List<Object> applied = new ArrayList<>();
        await(processor.processBatch("test", polled.message(), all -> {
            wholeAttempts.incrementAndGet();
            throw new IllegalStateException("tx", new SQLException("An I/O error occurred", "08006"));
        }, one -> {
            // a record alone may still fail transiently: it is retried on its own, and the ones behind it wait
            if (one == b && bAttempts.incrementAndGet() == 1) {
                throw new IllegalStateException("tx", new SQLException("An I/O error occurred", "08006"));
            }
            applied.add(one);
            return Uni.createFrom().voidItem();
        }));
        assertThat(wholeAttempts).hasValue(RecordProcessor.SPLIT_AFTER_ATTEMPTS);
        assertThat(applied).containsExactly(a, b, c);
        assertThat(polled.nacks).isEmpty();
        assertThat(polled.acks).containsOnlyKeys(11L, 20L).containsValues(1);
        assertThat(count(RecordProcessor.CONSUMED, "test")).isEqualTo(3);
        assertThat(count(RecordProcessor.DEAD_LETTERED, "test")).isZero();
    }

    @Test
    void poisonInABatchIsAppliedOneByOneSoOnlyThePoisonIsDeadLetteredAndEachPartitionIsAckedAtItsLastRecord() {
        JobHalted a = halted(), poison = halted(), c = halted(), d = halted(), e = halted();
        Polled polled = new Polled().add(0, 10, a, null).add(0, 11, poison, null).add(0, 12, c, null)
                .add(1, 20, d, null).add(1, 21, e, null);
        List<Object> appliedOneByOne = new ArrayList<>();
        await(processor.processBatch("test", polled.message(), all -> {
            throw new InvalidEventException("run 7001 has no claim for batch 9");
        }, one -> {
            if (one == poison) {
                throw new InvalidEventException("run 7001 has no claim for batch 9");
            }
            appliedOneByOne.add(one);
            return Uni.createFrom().voidItem();
        }));
        assertThat(appliedOneByOne).containsExactly(a, c, d, e);
        assertThat(polled.nacks).containsOnlyKeys(11L);
        assertThat(polled.nacks.get(11L)).isInstanceOf(DeadLetterException.class)
                .hasMessage("invalid event: run 7001 has no claim for batch 9");
        // the connector tracks only each partition's last record of a batch: those commit the batch
        assertThat(polled.acks).containsOnlyKeys(12L, 21L).containsValues(1);
        assertThat(polled.batchAcks).hasValue(0);
        assertThat(count(RecordProcessor.CONSUMED, "test")).isEqualTo(4);
        assertThat(count(RecordProcessor.DEAD_LETTERED, "test")).isEqualTo(1);
        assertThat(spans.getFinishedSpanItems()).hasSize(5);
        assertThat(spanOf(poison).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(spanOf(c).getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void anUndecodableRecordInABatchIsDeadLetteredWithTheDecodersReasonAndTheOthersApplyOneByOne() {
        JobHalted a = halted(), c = halted();
        Polled polled = new Polled().add(0, 10, a, null).add(0, 11, null, null).add(0, 12, c, null);
        List<Object> appliedOneByOne = new ArrayList<>();
        await(processor.processBatch("test", polled.message(), all -> {
            throw new AssertionError("a batch with an undecodable record is never applied as one");
        }, one -> {
            appliedOneByOne.add(one);
            return Uni.createFrom().voidItem();
        }));
        assertThat(appliedOneByOne).containsExactly(a, c);
        assertThat(polled.nacks).containsOnlyKeys(11L);
        assertThat(polled.nacks.get(11L)).hasMessage("neither a registry record nor a single-object encoded one");
        assertThat(polled.acks).containsOnlyKeys(12L);
    }

    @Test
    void aPoisonLastRecordIsLeftToTheDeadLetterQueueWhichAcknowledgesIt() {
        JobHalted a = halted(), poison = halted();
        Polled polled = new Polled().add(0, 10, a, null).add(0, 11, poison, null);
        await(processor.processBatch("test", polled.message(), all -> {
            throw new NullPointerException();
        }, one -> {
            if (one == poison) {
                throw new NullPointerException();
            }
            return Uni.createFrom().voidItem();
        }));
        assertThat(polled.nacks).containsOnlyKeys(11L);
        assertThat(polled.acks).isEmpty();
    }

    private static JobHalted halted() {
        return JobHalted.newBuilder().setHeader(Events.header("test", 7001L, null)).setProcessId(4711)
                .setInstanceExecId(7001).setTargetBatchId(9).setBatchMarking(null).build();
    }

    /** {@code event} as the connector delivers it from its topic, with a traceparent header unless that is null. */
    private static Message<Object> lifecycleRecord(JobHalted event, String traceparent, AtomicInteger acks) {
        ConsumerRecord<String, Object> record = new ConsumerRecord<>(Topics.EXECUTION_LIFECYCLE, 0, 12, "4711", event);
        if (traceparent != null) {
            record.headers().add(RecordHeaders.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
        }
        return Message.of((Object) event, Metadata.of(new IncomingKafkaRecordMetadata<>(record, "lifecycle")), () -> {
            acks.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }, reason -> CompletableFuture.completedFuture(null));
    }

    private SpanData spanOf(JobHalted event) {
        String id = Events.headerOf(event).getEventId();
        return spans.getFinishedSpanItems().stream()
                .filter(s -> id.equals(s.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))))
                .findFirst().orElseThrow();
    }

    private double count(String meter, String consumer) {
        return meters.get(meter).tag("consumer", consumer).counter().count();
    }

    private static String classificationHeader(Metadata metadata) {
        OutgoingKafkaRecordMetadata<?> outgoing = metadata.get(OutgoingKafkaRecordMetadata.class).orElseThrow();
        return new String(outgoing.getHeaders().lastHeader(RecordProcessor.CLASSIFICATION_HEADER).value(),
                StandardCharsets.UTF_8);
    }
}
