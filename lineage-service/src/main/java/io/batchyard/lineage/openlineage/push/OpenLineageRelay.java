package io.batchyard.lineage.openlineage.push;

import io.batchyard.eventing.BrokerSettings;
import io.batchyard.lineage.openlineage.OpenLineageSettings;
import io.batchyard.lineage.openlineage.push.PushOutboxRepository.Pending;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * Sends queued RunEvents to the configured OpenLineage backends: HTTP ({@code POST {url}/api/v1/lineage}, with the
 * API key as a bearer token) and/or a Kafka topic of OpenLineage JSON keyed by run id. Runs on a thread of its own,
 * apart from lifecycle consumption, so a backend that is down only grows the backlog: each run's events leave in
 * order, a failed one is retried with doubling back-off (up to {@code relay.max-backoff}) and holds back the events of
 * its run behind it, never those of other runs. Events are claimed under a lease and sent with no database
 * transaction or lock open ({@link PushOutboxRepository}). Not started when no transport is configured.
 */
@ApplicationScoped
public class OpenLineageRelay {

    private static final Logger LOG = Logger.getLogger(OpenLineageRelay.class);
    public static final String SENT = "batchyard.lineage.openlineage.sent";
    public static final String FAILED = "batchyard.lineage.openlineage.failed";
    public static final String BACKLOG = "batchyard.lineage.openlineage.backlog";
    private static final Duration KEEP_SENT = Duration.ofDays(7);

    private final PushOutboxRepository outbox;
    private final OpenLineageSettings settings;
    private final Map<String, Object> broker;
    private final MeterRegistry meters;
    private final AtomicLong backlog = new AtomicLong();
    private final HttpClient http;
    private volatile Producer<String, String> producer;
    private volatile Thread worker;
    private volatile boolean running;

    public OpenLineageRelay(PushOutboxRepository outbox, OpenLineageSettings settings, MeterRegistry meters,
                            @Identifier(BrokerSettings.DEFAULT_BROKER) Map<String, Object> broker) {
        this.outbox = outbox;
        this.settings = settings;
        this.broker = broker;
        this.meters = meters;
        this.http = HttpClient.newBuilder().connectTimeout(settings.http().timeout()).build();
        Gauge.builder(BACKLOG, backlog, AtomicLong::get).description("OpenLineage events not yet delivered")
                .register(meters);
    }

    void start(@Observes StartupEvent ignored) {
        List<String> transports = settings.transports();
        if (transports.isEmpty()) {
            LOG.info("OpenLineage push off: neither batchyard.lineage.openlineage.http.url nor .kafka.topic is set");
            return;
        }
        running = true;
        worker = new Thread(this::loop, "openlineage-relay");
        worker.setDaemon(true);
        worker.start();
        LOG.infof("OpenLineage push on through %s", transports);
    }

    void stop(@Observes ShutdownEvent ignored) {
        running = false;
        Thread w = worker;
        if (w != null) {
            w.interrupt();
            try {
                w.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    private void loop() {
        long lastPurge = 0;
        while (running) {
            boolean more = false;
            try {
                more = pass() > 0;
                backlog.set(outbox.backlog());
                if (System.currentTimeMillis() - lastPurge > 3_600_000L) {
                    outbox.purge(KEEP_SENT);
                    lastPurge = System.currentTimeMillis();
                }
            } catch (RuntimeException e) {
                // The database is away: the rows wait where they are (a lease runs out), and the next pass tries again.
                LOG.warnf("OpenLineage relay pass failed: %s", e.toString());
            }
            if (!more) {
                try {
                    Thread.sleep(settings.relay().pollInterval().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * One claim-then-send round: claims due events (short transaction), sends each run's in order with no transaction
     * or lock held, records each outcome in a statement of its own. Returns how many were delivered.
     */
    int pass() {
        int limit = settings.relay().batchSize();
        Duration lease = settings.relay().lease();
        long claimedAt = System.nanoTime();
        PushOutboxRepository.Claim claim = outbox.claim(settings.transports(), limit, limit, lease);
        // Stop sending while a whole delivery still fits in the lease: past it another replica may take the rows.
        long sendUntil = claimedAt + lease.minus(settings.http().timeout()).toNanos();
        int sent = 0;
        try {
            for (List<Pending> run : claim.runs()) {
                for (Pending event : run) {
                    if (!running || System.nanoTime() - sendUntil > 0) {
                        return sent;
                    }
                    String error = send(event);
                    if (error != null) {
                        outbox.failed(event, claim.token(), error, backoff(event.attempts() + 1));
                        break;
                    }
                    outbox.sent(event, claim.token());
                    sent++;
                }
            }
            return sent;
        } finally {
            if (!claim.runs().isEmpty()) {
                outbox.release(claim.token());
            }
        }
    }

    private Duration backoff(int attempts) {
        long first = settings.relay().firstBackoff().toMillis();
        long max = settings.relay().maxBackoff().toMillis();
        long millis = first << Math.min(attempts - 1, 20);
        return Duration.ofMillis(Math.min(Math.max(millis, first), max));
    }

    private String send(Pending event) {
        String error;
        try {
            error = "http".equals(event.transport()) ? postHttp(event) : sendKafka(event);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        } catch (Exception e) {
            error = e.toString();
        }
        Counter.builder(error == null ? SENT : FAILED).tag("transport", event.transport())
                .description(error == null ? "OpenLineage events delivered" : "OpenLineage delivery attempts that failed")
                .register(meters).increment();
        if (error != null) {
            LOG.debugf("OpenLineage event %d (%s) not delivered: %s", event.seq(), event.transport(), error);
        }
        return error;
    }

    private String postHttp(Pending event) throws Exception {
        String base = settings.http().url().orElseThrow();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.replaceAll("/+$", "") + "/api/v1/lineage"))
                .timeout(settings.http().timeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(event.payload(), StandardCharsets.UTF_8));
        settings.http().apiKey().filter(k -> !k.isBlank()).ifPresent(k -> request.header("Authorization", "Bearer " + k));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() / 100 == 2 ? null
                : "HTTP " + response.statusCode() + ": " + response.body();
    }

    private String sendKafka(Pending event) throws Exception {
        producer().send(new ProducerRecord<>(settings.kafka().topic().orElseThrow(), event.runId().toString(),
                event.payload())).get(settings.http().timeout().toMillis(), TimeUnit.MILLISECONDS);
        return null;
    }

    private Producer<String, String> producer() {
        if (producer == null) {
            Properties config = BrokerSettings.forClient(broker, ProducerConfig.configNames());
            config.put(ProducerConfig.ACKS_CONFIG, "all");
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            config.put(ProducerConfig.CLIENT_ID_CONFIG, "lineage-service-openlineage");
            producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        }
        return producer;
    }
}
