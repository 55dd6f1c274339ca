package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.Topics;
import io.batchyard.schemas.TraceParent;
import io.batchyard.schemas.kafka.EventDeserializer;
import io.batchyard.teststack.TopicContents;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A producer outside the JVM (examples/node-producer: Node.js, kafkajs and the Confluent-compatible registry
 * client, no Batchyard code) runs a registered job with an operator's token: INIT_JOB and HALT_JOB reach
 * execution-service through the schema registry, the job starts and halts, and its batch fans out to the job
 * downstream. The example's consumer then prints that BatchEnqueued decoded through the registry alone.
 */
class NodeProducerEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Path EXAMPLE = Path.of("..", "..", "examples", "node-producer").toAbsolutePath().normalize();

    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void aNodeJsProducerRunsAJobThroughTheRegistryAndItsBatchFansOut() throws Exception {
        if (!ExternalCommands.onPath("node") || !ExternalCommands.onPath("npm")) {
            System.out.println("[skip] node/npm are not installed: the Node.js producer is not run");
            return;
        }
        run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), Duration.ofMinutes(5));

        // The job's own identity owns the application, so its operator role may run the application's jobs.
        String token = Identity.get().token("node-job", "developer", "operator");
        long app = given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + token)
                .body(Map.of("name", "node-" + System.nanoTime(), "description", "node producer", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        RegistryFixtures.Chain chain = RegistryFixtures.chain(stack, app, WAIT);
        Job upstream = chain.upstream();
        Job downstream = chain.downstream();

        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE);
             EventProbe batches = EventProbe.on(stack.kafka(), Topics.QUEUE_BATCHES);
             EventProbe rejections = EventProbe.on(stack.kafka(), Topics.EXECUTION_REJECTIONS)) {
            TraceParent trace = TraceParent.root();
            String out = run(List.of("node", "produce.js", String.valueOf(upstream.parent()), "2024-09-01"),
                    Map.of("BATCHYARD_TOKEN", token, "TRACEPARENT", trace.toString()), Duration.ofSeconds(60));
            assertThat(out).contains("sent INIT_JOB").contains("sent HALT_JOB");

            lifecycle.await(JobStarted.class, e -> e.getProcessId() == upstream.parent(), WAIT);
            JobHalted halted = lifecycle.await(JobHalted.class, e -> e.getProcessId() == upstream.parent(), WAIT)
                    .event();
            assertThat(halted.getBatchMarking()).isEqualTo("2024-09-01");
            assertThat(halted.getHeader().getActor()).isEqualTo("node-job");
            BatchEnqueued enqueued = batches.await(BatchEnqueued.class,
                    e -> e.getConsumerProcessId() == downstream.step(), WAIT).event();
            assertThat(enqueued.getSourceBatchId()).isEqualTo(halted.getTargetBatchId());
            assertThat(rejections.all(CommandRejected.class, r -> r.getProcessId() == upstream.parent(),
                    Duration.ofSeconds(1))).isEmpty();

            // The producer's trace runs through execution-service's events and on through queue-service's fan-out.
            assertThat(traceOf(Topics.EXECUTION_LIFECYCLE, halted)).isEqualTo(trace.traceId());
            assertThat(traceOf(Topics.QUEUE_BATCHES, enqueued)).isEqualTo(trace.traceId());
        }

        // Any tool that speaks the registry's API reads the topic: the example's consumer decodes the fan-out.
        String decoded = run(List.of("node", "consume.js", Topics.QUEUE_BATCHES, "8"), Map.of(), Duration.ofSeconds(60));
        assertThat(decoded.lines().filter(l -> l.contains("\"type\":\"BatchEnqueued\""))
                .filter(l -> l.contains("\"consumerProcessId\":" + downstream.step())))
                .as(decoded).isNotEmpty();
    }

    /** The trace id of the record that carries {@code event} on {@code topic}, from its traceparent header. */
    private static String traceOf(String topic, SpecificRecord event) {
        String id = Events.eventId(event).toString();
        try (EventDeserializer decoder = EventDeserializer.forRegistry(stack.infra.schemaRegistryUrl())) {
            for (ConsumerRecord<byte[], byte[]> r : TopicContents.read(stack.kafka(), topic::equals,
                    Duration.ofSeconds(10), Duration.ofSeconds(30))) {
                SpecificRecord read = decoder.deserialize(r.topic(), r.headers(), r.value());
                if (read != null && id.equals(Events.eventId(read).toString())) {
                    Header header = r.headers().lastHeader(RecordHeaders.TRACEPARENT);
                    assertThat(header).as("traceparent of " + event.getClass().getSimpleName()).isNotNull();
                    return TraceParent.parse(new String(header.value(), StandardCharsets.UTF_8)).orElseThrow().traceId();
                }
            }
        }
        throw new AssertionError(event.getClass().getSimpleName() + " " + id + " not found on " + topic);
    }

    /** Runs a command in the example's folder against the stack's broker and registry. */
    private static String run(List<String> command, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("KAFKA_BOOTSTRAP", stack.kafka());
        all.put("SCHEMA_REGISTRY_URL", stack.infra.schemaRegistryUrl());
        return ExternalCommands.run(EXAMPLE, command, all, timeout);
    }
}
