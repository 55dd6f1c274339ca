package io.batchyard.eventing.consumer;

import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/**
 * The one way every {@code @Incoming} method applies a record. A transient failure ({@link FailureClassifier}) is
 * retried on the same record, with exponential backoff, for as long as it takes: the method does not return, so the
 * partition does not move on and no offset is committed past the record. Each attempt is a fresh call of the effect,
 * i.e. a fresh transaction, so the consumer's ledger keeps the effect exactly-once. Only poison is dead-lettered, and
 * with a {@link DeadLetterException} that carries nothing but the safe reason.
 *
 * <p>When the application shuts down while a record is being retried, the record is left unacknowledged (neither
 * acked nor dead-lettered): its offset is not committed and it is delivered again after the restart.
 *
 * <p>Usage, on a blocking method that takes the whole message so that it decides ack and nack itself:
 * <pre>{@code
 * @Incoming("lifecycle") @Blocking
 * public CompletionStage<Void> consume(Message<SpecificRecord> record) {
 *     return records.process(CONSUMER, record, this::apply);
 * }}</pre>
 */
@ApplicationScoped
public class RecordProcessor {

    /** Dead-letter header with the failure's kind: {@code invalid} or {@code unexpected}. */
    public static final String CLASSIFICATION_HEADER = "dead-letter-classification";

    private static final Logger LOG = Logger.getLogger(RecordProcessor.class);
    private static final int MAX_REASON = 500;

    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Duration logInterval;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final AtomicLong transientFailures = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();

    public RecordProcessor(
            @ConfigProperty(name = "batchyard.consumer.retry.initial-backoff", defaultValue = "PT0.1S") Duration initialBackoff,
            @ConfigProperty(name = "batchyard.consumer.retry.max-backoff", defaultValue = "PT5S") Duration maxBackoff,
            @ConfigProperty(name = "batchyard.consumer.retry.log-interval", defaultValue = "PT30S") Duration logInterval) {
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
    public <T> CompletionStage<Void> process(String consumer, Message<T> message, Consumer<? super T> effect) {
        T payload = message.getPayload();
        String where = coordinates(message);
        if (payload == null) {
            return deadLetter(consumer, message, where, new FailureClassifier.Classification(FailureKind.INVALID,
                    "undecodable record", null), null);
        }
        String what = payload.getClass().getSimpleName() + " at " + where;
        long backoff = Math.max(1, initialBackoff.toMillis());
        long firstFailure = 0;
        long lastLog = 0;
        for (int attempt = 1; ; attempt++) {
            if (stopping.getCount() == 0) {
                return leaveForRedelivery(consumer, what, attempt - 1);
            }
            try {
                effect.accept(payload);
                if (attempt > 1) {
                    LOG.infof("%s: %s applied after %d attempts (%d ms)", consumer, what, attempt,
                            System.currentTimeMillis() - firstFailure);
                }
                return message.ack();
            } catch (RuntimeException e) {
                FailureClassifier.Classification c = FailureClassifier.classify(e);
                if (c.kind().isPoison()) {
                    return deadLetter(consumer, message, what, c, e);
                }
                transientFailures.incrementAndGet();
                long now = System.currentTimeMillis();
                if (attempt == 1) {
                    firstFailure = now;
                    lastLog = now;
                    LOG.warnf("%s: %s not applied: %s (%s); retrying with backoff up to %d ms until it succeeds",
                            consumer, what, c.reason(), c.detail(), maxBackoff.toMillis());
                } else if (now - lastLog >= logInterval.toMillis()) {
                    lastLog = now;
                    LOG.warnf("%s: %s still not applied after %d attempts over %d s: %s (%s)", consumer, what, attempt,
                            (now - firstFailure) / 1000, c.reason(), c.detail());
                }
                if (!pause(backoff)) {
                    return leaveForRedelivery(consumer, what, attempt);
                }
                backoff = Math.min(backoff * 2, Math.max(1, maxBackoff.toMillis()));
            }
        }
    }

    /** Transient failures retried since start; tests read it to prove the retry path really ran. */
    public long transientFailures() {
        return transientFailures.get();
    }

    /** Records sent to a dead-letter topic since start. */
    public long deadLettered() {
        return deadLettered.get();
    }

    void stop(@Observes @Priority(1) ShutdownEvent ignored) {
        stopping.countDown();
    }

    /** Waits before the next attempt; false when the application is stopping (or the thread was interrupted). */
    private boolean pause(long millis) {
        try {
            return !stopping.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private CompletionStage<Void> leaveForRedelivery(String consumer, String what, int attempts) {
        LOG.infof("%s: shutting down; %s left unacknowledged after %d attempt(s), it is delivered again after restart",
                consumer, what, attempts);
        return CompletableFuture.completedFuture(null);
    }

    private CompletionStage<Void> deadLetter(String consumer, Message<?> message, String what,
                                             FailureClassifier.Classification c, RuntimeException failure) {
        deadLettered.incrementAndGet();
        String reason = c.reason().length() > MAX_REASON ? c.reason().substring(0, MAX_REASON) + "..." : c.reason();
        if (c.kind() == FailureKind.UNEXPECTED) {
            LOG.errorf(failure, "%s: %s dead-lettered after an unexpected failure: %s", consumer, what, reason);
        } else {
            LOG.warnf("%s: %s dead-lettered: %s%s", consumer, what, reason,
                    failure == null || reason.endsWith(c.detail()) ? "" : " (" + c.detail() + ")");
        }
        String kind = c.kind().name().toLowerCase(Locale.ROOT);
        Metadata headers = Metadata.of(OutgoingKafkaRecordMetadata.builder()
                .addHeaders(new RecordHeader(CLASSIFICATION_HEADER, kind.getBytes(StandardCharsets.UTF_8))).build());
        return message.nack(new DeadLetterException(c.kind(), reason), headers);
    }

    private static String coordinates(Message<?> message) {
        return message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(m -> m.getTopic() + "-" + m.getPartition() + "@" + m.getOffset())
                .orElse("(no Kafka metadata)");
    }
}
