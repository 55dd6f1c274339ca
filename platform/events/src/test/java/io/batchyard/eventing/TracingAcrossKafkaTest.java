package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.TraceParent;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.TopicContents;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * One trace from an HTTP call through the Kafka hop: the call appends an event, the relay publishes it, a consumer
 * applies it and appends an event of its own, which the relay publishes too ({@link TracedWork}). Every span of that
 * work is in the caller's trace, each a child of the one before, and each record carries its publication's span.
 */
@EventingQuarkusTest
class TracingAcrossKafkaTest {

    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");

    private final String bootstrap = Infrastructure.get().kafkaBootstrapServers();

    @Inject
    InMemorySpanExporter spans;

    @Inject
    OutboxRelay relay;

    @Inject
    TransactionFixture tx;

    @TestHTTPResource("/tracing-test")
    URL calls;

    @Test
    void theCallersTraceFollowsItsEventsAcrossTheKafkaHop() throws Exception {
        tx.prepare();
        Infrastructure.createTopics(bootstrap, List.of(TracedWork.TOPIC, TracedWork.FOLLOW_UP));
        TraceParent caller = TraceParent.root();
        long key = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);

        // The test application's relay is off (the relay tests drive their own); this test lets it run.
        relay.startRelaying();
        String eventId;
        try {
            eventId = call(key, caller);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> span(SpanKind.PRODUCER, DESTINATION, TracedWork.FOLLOW_UP).isPresent());
        } finally {
            relay.close();
        }
        SpanData server = span(SpanKind.SERVER, s -> s.getName().contains("/tracing-test")).orElseThrow();
        SpanData published = span(SpanKind.PRODUCER, MESSAGE_ID, eventId).orElseThrow();
        SpanData processed = span(SpanKind.CONSUMER, MESSAGE_ID, eventId).orElseThrow();
        SpanData followUp = span(SpanKind.PRODUCER, DESTINATION, TracedWork.FOLLOW_UP).orElseThrow();

        assertThat(List.of(server, published, processed, followUp)).extracting(SpanData::getTraceId)
                .containsOnly(caller.traceId());
        assertThat(server.getParentSpanId()).as("the call continues the caller's span").isEqualTo(caller.spanId());
        assertThat(published.getParentSpanId()).as("the event is published in the call's trace")
                .isEqualTo(server.getSpanId());
        assertThat(processed.getParentSpanId()).as("the record is processed as a child of its publication")
                .isEqualTo(published.getSpanId());
        assertThat(followUp.getParentSpanId()).as("what the processing appends is published in its span")
                .isEqualTo(processed.getSpanId());
        assertThat(published.getName()).isEqualTo(TracedWork.TOPIC + " publish");
        assertThat(processed.getName()).isEqualTo(TracedWork.TOPIC + " process");
        assertThat(List.of(published, processed, followUp)).extracting(s -> s.getStatus().getStatusCode())
                .containsOnly(StatusCode.UNSET);

        assertThat(traceparentOf(TracedWork.TOPIC, key)).as("the record carries its publication's span")
                .isEqualTo(spanOf(published));
        assertThat(traceparentOf(TracedWork.FOLLOW_UP, key)).isEqualTo(spanOf(followUp));
    }

    /** Calls the traced work with the caller's traceparent; answers the id of the event it appended. */
    private String call(long key, TraceParent caller) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(calls.toURI().resolve("/tracing-test/" + key))
                .header(RecordHeaders.TRACEPARENT, caller.toString())
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private Optional<SpanData> span(SpanKind kind, AttributeKey<String> attribute, String value) {
        return span(kind, s -> value.equals(s.getAttributes().get(attribute)));
    }

    /** The one exported span of {@code kind} that matches. */
    private Optional<SpanData> span(SpanKind kind, Predicate<SpanData> matches) {
        List<SpanData> found = spans.getFinishedSpanItems().stream()
                .filter(s -> s.getKind() == kind && matches.test(s)).toList();
        assertThat(found).hasSizeLessThanOrEqualTo(1);
        return found.stream().findFirst();
    }

    /** The trace and span a record published under {@code key} carries in its traceparent header. */
    private TraceParent traceparentOf(String topic, long key) {
        List<ConsumerRecord<byte[], byte[]>> records = TopicContents.read(bootstrap, topic::equals,
                Duration.ofSeconds(30), Duration.ofSeconds(60)).stream()
                .filter(r -> String.valueOf(key).equals(new String(r.key(), StandardCharsets.UTF_8))).toList();
        assertThat(records).hasSize(1);
        String header = new String(records.get(0).headers().lastHeader(RecordHeaders.TRACEPARENT).value(),
                StandardCharsets.UTF_8);
        return TraceParent.parse(header).orElseThrow();
    }

    private static TraceParent spanOf(SpanData span) {
        return new TraceParent(span.getTraceId(), span.getSpanId(), span.getSpanContext().getTraceFlags().asHex());
    }
}
