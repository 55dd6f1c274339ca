package io.batchyard.eventing.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.eventing.LogContext;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.Topics;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.MDC;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
    private final RecordProcessor processor = new RecordProcessor(meters, Duration.ofMillis(5), Duration.ofMillis(40),
            Duration.ofSeconds(30));

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
    void theRecordsEventRunProcessAndTraceAreInTheMdcWhileItIsHandledAndRestoredAfter() throws Exception {
        JobHalted event = JobHalted.newBuilder().setHeader(Events.header("test", 7001L, null)).setProcessId(4711)
                .setInstanceExecId(7001).setTargetBatchId(9).setBatchMarking(null).build();
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        ConsumerRecord<String, Object> record = new ConsumerRecord<>(Topics.EXECUTION_LIFECYCLE, 0, 12, "4711", event);
        record.headers().add(RecordHeaders.TRACEPARENT,
                ("00-" + trace + "-00f067aa0ba902b7-01").getBytes(StandardCharsets.UTF_8));
        AtomicInteger acks = new AtomicInteger();
        Message<Object> message = Message.of((Object) event,
                Metadata.of(new IncomingKafkaRecordMetadata<>(record, "lifecycle")), () -> {
                    acks.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                });
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
                    .containsEntry(LogContext.TRACE_ID, trace);
            assertThat(left).containsEntry(LogContext.PROCESS_ID, "enclosing")
                    .containsEntry(LogContext.EVENT_ID, null)
                    .containsEntry(LogContext.RUN_ID, null)
                    .containsEntry(LogContext.TRACE_ID, null);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
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
