package io.batchyard.eventing.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.eventing.InvalidEventException;
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

    private final RecordProcessor processor = new RecordProcessor(Duration.ofMillis(5), Duration.ofMillis(40),
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
        assertThat(processor.transientFailures()).isEqualTo(4);
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
        assertThat(processor.deadLettered()).isEqualTo(3);
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

    private static String classificationHeader(Metadata metadata) {
        OutgoingKafkaRecordMetadata<?> outgoing = metadata.get(OutgoingKafkaRecordMetadata.class).orElseThrow();
        return new String(outgoing.getHeaders().lastHeader(RecordProcessor.CLASSIFICATION_HEADER).value(),
                StandardCharsets.UTF_8);
    }
}
