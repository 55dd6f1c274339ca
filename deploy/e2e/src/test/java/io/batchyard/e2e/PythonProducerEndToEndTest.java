package io.batchyard.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Topics;
import io.batchyard.schemas.TraceParent;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.identity.Identity;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A producer outside the JVM in Python (examples/python-producer: Debian's python3-confluent-kafka and its
 * schema-registry Avro serde, no Batchyard code) runs a registered job with an operator's token: INIT_JOB and HALT_JOB
 * reach execution-service through the schema registry, the job starts and halts in the producer's trace, and its batch
 * fans out to the job downstream. The example's consumer then prints that BatchEnqueued, and the JobHalted, decoded
 * through the registry alone, with their traceparent headers.
 */
class PythonProducerEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Path EXAMPLE = Path.of("..", "..", "examples", "python-producer").toAbsolutePath()
            .normalize();
    /** Debian's packages install for the system interpreter, not for a python3 earlier on PATH (pyenv, a venv). */
    private static final String PYTHON = "/usr/bin/python3";

    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void aPythonProducerRunsAJobThroughTheRegistryAndItsBatchFansOut() throws Exception {
        if (!debianKafkaClient()) {
            System.out.println("[skip] " + PYTHON + " cannot import confluent_kafka.avro (install the Debian packages"
                    + " python3-confluent-kafka and python3-avro): the Python producer is not run");
            return;
        }
        // The job's own identity owns the application, so its operator role may run the application's jobs.
        String token = Identity.get().token("python-producer-job", "developer", "operator");
        long app = RegistryFixtures.applicationOwnedBy(stack, token, "python-producer");
        RegistryFixtures.Chain chain = RegistryFixtures.chain(stack, app, WAIT);
        Job upstream = chain.upstream();
        Job downstream = chain.downstream();

        TraceParent trace = TraceParent.root();
        JobHalted halted;
        BatchEnqueued enqueued;
        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE);
             EventProbe batches = EventProbe.on(stack.kafka(), Topics.QUEUE_BATCHES);
             EventProbe rejections = EventProbe.on(stack.kafka(), Topics.EXECUTION_REJECTIONS)) {
            String out = run(List.of(PYTHON, "produce.py", String.valueOf(upstream.parent()), "2024-09-01"),
                    Map.of("BATCHYARD_TOKEN", token, "TRACEPARENT", trace.toString()), Duration.ofSeconds(60));
            assertThat(out).contains("sent INIT_JOB").contains("sent HALT_JOB");

            lifecycle.await(JobStarted.class, e -> e.getProcessId() == upstream.parent(), WAIT);
            halted = lifecycle.await(JobHalted.class, e -> e.getProcessId() == upstream.parent(), WAIT).event();
            assertThat(halted.getBatchMarking()).isEqualTo("2024-09-01");
            assertThat(halted.getHeader().getActor()).isEqualTo("python-producer-job");
            enqueued = batches.await(BatchEnqueued.class, e -> e.getConsumerProcessId() == downstream.step(), WAIT)
                    .event();
            assertThat(enqueued.getSourceBatchId()).isEqualTo(halted.getTargetBatchId());
            assertThat(rejections.all(CommandRejected.class, r -> r.getProcessId() == upstream.parent(),
                    Duration.ofSeconds(1))).isEmpty();
        }

        // Any tool that speaks the registry's API reads the topics: the example's consumer decodes the fan-out, and
        // the producer's trace runs through execution-service's event and on through queue-service's fan-out.
        JsonPath fanOut = consumed(Topics.QUEUE_BATCHES, "BatchEnqueued", "consumerProcessId", downstream.step());
        assertThat(fanOut.getLong("event.sourceBatchId")).isEqualTo(enqueued.getSourceBatchId());
        assertThat(fanOut.getString("key")).isEqualTo(String.valueOf(downstream.step()));
        assertThat(traceId(fanOut)).isEqualTo(trace.traceId());
        JsonPath jobHalted = consumed(Topics.EXECUTION_LIFECYCLE, "JobHalted", "instanceExecId",
                halted.getInstanceExecId());
        assertThat(jobHalted.getString("event.batchMarking")).isEqualTo("2024-09-01");
        assertThat(traceId(jobHalted)).isEqualTo(trace.traceId());
    }

    /** The record of {@code type} on {@code topic} whose event has {@code field} = {@code value}, as consume.py prints it. */
    private static JsonPath consumed(String topic, String type, String field, long value)
            throws IOException, InterruptedException {
        String out = run(List.of(PYTHON, "consume.py", "8", topic, type), Map.of(), Duration.ofSeconds(60));
        return out.lines().filter(l -> l.startsWith("{")).map(JsonPath::new)
                .filter(j -> type.equals(j.getString("type")) && j.get("event." + field) != null
                        && j.getLong("event." + field) == value)
                .findFirst().orElseThrow(() -> new AssertionError("no " + type + " with " + field + " " + value
                        + " printed:\n" + out));
    }

    private static String traceId(JsonPath line) {
        String header = line.getString("traceparent");
        assertThat(header).as("traceparent of " + line.prettify()).isNotNull();
        return TraceParent.parse(header).orElseThrow().traceId();
    }

    /** Whether Debian's Kafka client with its schema-registry Avro serde is importable by the system interpreter. */
    private static boolean debianKafkaClient() throws IOException, InterruptedException {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return false;
        }
        Process probe = new ProcessBuilder(PYTHON, "-c", "import avro, confluent_kafka.avro")
                .directory(Path.of(System.getProperty("java.io.tmpdir")).toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
    }

    /** Runs a command in the example's folder against the stack's broker and registry. */
    private static String run(List<String> command, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        Map<String, String> all = new HashMap<>(env);
        all.put("KAFKA_BOOTSTRAP", stack.kafka());
        all.put("SCHEMA_REGISTRY_URL", stack.infra.schemaRegistryUrl());
        return ExternalCommands.run(EXAMPLE, command, all, timeout);
    }
}
