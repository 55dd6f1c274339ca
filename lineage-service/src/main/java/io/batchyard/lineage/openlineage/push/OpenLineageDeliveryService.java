package io.batchyard.lineage.openlineage.push;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.lineage.OpenLineageRunEvent;
import io.batchyard.lineage.openlineage.OpenLineageSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.WebApplicationException;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Delivers the RunEvents of {@code batchyard.lineage.openlineage} to the configured transports, one consumer each
 * ({@link OpenLineageConsumer}), so that a backend that is down holds back only its own transport. Each delivery is
 * recorded in the ledger in the transaction it runs in: a redelivered record (Kafka is at-least-once) is not sent
 * again, and a delivery that failed rolls its ledger row back, so the consumer's retry sends it again. Only that one
 * ledger row is written in the transaction, so holding it over the send holds no lock anyone else waits for.
 *
 * <p>A failure of the backend is transient for the consumer: it retries the same record with its backoff, and the
 * events behind it (the rest of the run among them, since the topic is keyed by run id) wait, in order. A refusal of
 * the event itself is poison and goes to the consumer's dead-letter topic.
 */
@ApplicationScoped
public class OpenLineageDeliveryService {

    /** Ledger name of the HTTP transport's consumer. */
    public static final String HTTP = "lineage-openlineage-http";
    /** Ledger name of the Kafka transport's consumer. */
    public static final String KAFKA = "lineage-openlineage-kafka";
    /** RunEvents a backend took, per transport. */
    public static final String SENT = "batchyard.lineage.openlineage.sent";
    /** Deliveries that failed (each retried, unless the backend refused the event), per transport. */
    public static final String FAILED = "batchyard.lineage.openlineage.failed";

    private static final Logger LOG = Logger.getLogger(OpenLineageDeliveryService.class);

    private final ProcessedEventLedger ledger;
    private final OpenLineageHttp http;
    private final MutinyEmitter<String> kafka;
    private final OpenLineageSettings settings;
    private final MeterRegistry meters;

    public OpenLineageDeliveryService(ProcessedEventLedger ledger, OpenLineageHttp http,
                                      @Channel("openlineage-json") MutinyEmitter<String> kafka,
                                      OpenLineageSettings settings, MeterRegistry meters) {
        this.ledger = ledger;
        this.http = http;
        this.kafka = kafka;
        this.settings = settings;
        this.meters = meters;
    }

    /** Posts the event to the HTTP backend, unless none is configured. */
    @WithTransaction
    public Uni<Void> http(OpenLineageRunEvent event) {
        if (!http.configured()) {
            return Uni.createFrom().voidItem();
        }
        return ledger.once(HTTP, event, () -> counted("http", () -> http.post(event.getRunEvent()))).replaceWithVoid();
    }

    /** Publishes the event's JSON to the configured topic (key = run id), unless none is configured. */
    @WithTransaction
    public Uni<Void> kafka(OpenLineageRunEvent event) {
        Optional<String> topic = settings.kafka().topic().filter(t -> !t.isBlank());
        if (topic.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Message<String> record = Message.of(event.getRunEvent()).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withTopic(topic.get()).withKey(event.getRunId()).build());
        return ledger.once(KAFKA, event, () -> counted("kafka", () -> kafka.sendMessage(record))).replaceWithVoid();
    }

    /**
     * Counts the outcome and hands the consumer a failure it classifies right: a failure of the backend (no
     * connection, a timeout, an open circuit, a status other than a refusal, a broker that did not acknowledge) is
     * transient, reported as the backend being unavailable; a refusal of the event stays poison, and anything else (a
     * bug) is left to the platform's rule.
     */
    private Uni<Void> counted(String transport, Supplier<Uni<Void>> send) {
        // The broker's ack and the guarded call's retries may complete elsewhere; the transaction goes on where it ran.
        Context context = Vertx.currentContext();
        return Uni.createFrom().deferred(send::get)
                .emitOn(task -> {
                    if (context == null) {
                        task.run();
                    } else {
                        context.runOnContext(ignored -> task.run());
                    }
                })
                .onItem().invoke(() -> counter(SENT, transport, "OpenLineage events delivered").increment())
                .onFailure().transform(failure -> {
                    counter(FAILED, transport, "OpenLineage deliveries that failed").increment();
                    if (failure instanceof InvalidEventException) {
                        return failure;
                    }
                    LOG.debugf("OpenLineage event not delivered through %s: %s", transport, failure);
                    return "kafka".equals(transport) || failure instanceof WebApplicationException
                            || failure instanceof ProcessingException || failure instanceof FaultToleranceException
                            ? new ServiceUnavailableException("OpenLineage " + transport + " backend unavailable: "
                                    + failure.getClass().getSimpleName(), (Long) null, failure)
                            : failure;
                });
    }

    private Counter counter(String name, String transport, String description) {
        return Counter.builder(name).tag("transport", transport).description(description).register(meters);
    }
}
