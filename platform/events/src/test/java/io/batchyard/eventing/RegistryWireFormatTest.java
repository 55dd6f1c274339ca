package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.ReleasedSchemas;
import io.batchyard.schemas.kafka.EventDeserializer;
import io.batchyard.schemas.kafka.EventSerializer;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.RegistrySerdes;
import io.batchyard.teststack.SchemaRegistryServer;
import io.batchyard.teststack.TopicContents;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * Records on the topics are in the registry's wire format, under topic-record subjects held to FULL_TRANSITIVE, and
 * readable by tools that know nothing of Batchyard; consumers read those and the records of releases before the
 * registry side by side. Against the real schema registry and broker of the test stack.
 */
class RegistryWireFormatTest {

    private final Infrastructure infra = Infrastructure.get();
    private final String registry = infra.schemaRegistryUrl();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aRecordIsTheMagicByteTheSchemaIdAndTheBodyUnderItsTopicRecordSubject() throws Exception {
        String topic = "wire-" + UUID.randomUUID();
        JobHalted halted = halted(41);
        RecordHeaders headers = new RecordHeaders();
        byte[] bytes;
        try (EventSerializer serializer = RegistrySerdes.serializer(registry)) {
            bytes = serializer.serialize(topic, headers, halted);
        }

        assertThat(bytes[0]).isEqualTo((byte) 0);
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        assertThat(get("/apis/ccompat/v7/schemas/ids/" + id)).contains("JobHalted").contains("batchMarking");
        assertThat(get("/apis/ccompat/v7/subjects")).contains(topic + "-io.batchyard.events.execution.JobHalted");
        assertThat(new String(headers.lastHeader("event-type").value(), StandardCharsets.UTF_8)).isEqualTo("JobHalted");
        try (EventDeserializer deserializer = RegistrySerdes.deserializer(registry)) {
            assertThat(deserializer.deserialize(topic, headers, bytes)).isEqualTo(halted);
        }
    }

    @Test
    void everySubjectIsHeldToFullTransitiveAndABreakingVersionIsRefused() throws Exception {
        assertThat(get("/apis/ccompat/v7/config")).contains(SchemaRegistryServer.COMPATIBILITY);
        String topic = "rule-" + UUID.randomUUID();
        try (EventSerializer serializer = RegistrySerdes.serializer(registry)) {
            serializer.serialize(topic, new RecordHeaders(), halted(1));
        }
        String subject = topic + "-io.batchyard.events.execution.JobHalted";
        // A field without a default: today's readers could not read records written with it, nor it theirs.
        String breaking = JobHalted.getClassSchema().toString()
                .replaceFirst("\"fields\":\\[", "\"fields\":[{\"name\":\"mandatory\",\"type\":\"string\"},");
        HttpResponse<String> refused = post("/apis/ccompat/v7/subjects/" + subject + "/versions", breaking);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    }

    @Test
    void anOldConsumerReadsANewRecordAndANewConsumerAnOldOneThroughTheRegistry() {
        String topic = "evolve-" + UUID.randomUUID();
        // New writer: today's JobHalted plus a field with a default, as the next release might add it.
        Schema next = new Schema.Parser().parse(JobHalted.getClassSchema().toString()
                .replaceFirst("\"fields\":\\[", "\"fields\":[{\"name\":\"retries\",\"type\":\"int\",\"default\":0},"));
        GenericRecord newer = new GenericData.Record(next);
        JobHalted today = halted(7);
        // The wire keeps milliseconds (timestamp-millis): compare with what survives the trip.
        today.getHeader().setOccurredAt(today.getHeader().getOccurredAt().truncatedTo(ChronoUnit.MILLIS));
        for (Schema.Field f : JobHalted.getClassSchema().getFields()) {
            newer.put(f.name(), f.name().equals("header") ? generic(today.getHeader(), next.getField("header").schema())
                    : today.get(f.pos()));
        }
        newer.put("retries", 3);
        // Old writer: BatchEnqueued as release 0.1.0 wrote it (no actor in its header).
        Schema released = ReleasedSchemas.byVersion().get("0.1.0").get(BatchEnqueued.getClassSchema().getFullName());
        GenericRecord older = releasedBatchEnqueued(released);

        byte[] newBytes;
        byte[] oldBytes;
        try (AvroKafkaSerializer<GenericRecord> generic = new AvroKafkaSerializer<>()) {
            var config = RegistrySerdes.config(registry);
            config.remove("apicurio.registry.avro-datum-provider");
            generic.configure(config, false);
            newBytes = generic.serialize(topic, newer);
            oldBytes = generic.serialize(topic, older);
        }
        try (EventDeserializer deserializer = RegistrySerdes.deserializer(registry)) {
            SpecificRecord readNew = deserializer.deserialize(topic, new RecordHeaders(), newBytes);
            assertThat(readNew).isEqualTo(today);
            BatchEnqueued readOld = (BatchEnqueued) deserializer.deserialize(topic, new RecordHeaders(), oldBytes);
            assertThat(readOld.getHeader().getProducer()).isEqualTo("queue-service 0.1.0");
            assertThat(readOld.getHeader().getActor()).isNull();
            assertThat(readOld.getConsumerProcessId()).isEqualTo(5L);
        }
    }

    @Test
    void consumersReadTheRecordsOfReleasesBeforeTheRegistryNextToRegistryRecords() {
        String topic = "cutover-" + UUID.randomUUID();
        Infrastructure.createTopics(infra.kafkaBootstrapServers(), List.of(topic));
        JobHalted before = halted(1);
        JobHalted after = halted(2);
        try (EventPublisher publisher = new EventPublisher(infra.kafkaBootstrapServers(), registry)) {
            publisher.publishSingleObject(topic, "k", before);
            publisher.publish(topic, "k", after);
        }
        List<SpecificRecord> read = new ArrayList<>();
        try (EventDeserializer deserializer = RegistrySerdes.deserializer(registry)) {
            for (ConsumerRecord<byte[], byte[]> r : TopicContents.read(infra.kafkaBootstrapServers(), topic::equals,
                    Duration.ofSeconds(10), Duration.ofSeconds(30))) {
                read.add(deserializer.deserialize(r.topic(), r.headers(), r.value()));
            }
        }
        assertThat(read).containsExactly(before, after);
    }

    /**
     * The README's line: kcat decodes the records through the registry's Confluent-compatible API. It needs a kcat
     * built with Avro support (libserdes); Debian's package is built without it, so where only that one is installed
     * the check is skipped with that reason (the Node.js example's consumer decodes the same records instead).
     */
    @Test
    void kcatPrintsDecodedRecords() throws Exception {
        if (!onPath("kcat")) {
            System.out.println("[skip] kcat is not installed: the kcat line is not checked");
            return;
        }
        Process version = new ProcessBuilder("kcat", "-V").redirectErrorStream(true).start();
        String features = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        version.waitFor(10, TimeUnit.SECONDS);
        if (!features.toLowerCase(java.util.Locale.ROOT).contains("avro")) {
            System.out.println("[skip] this kcat is built without Avro/Schema-Registry support (Debian's package lacks "
                    + "libserdes): the kcat line is not checked; kcat -V says: " + features.lines().skip(3).findFirst().orElse(""));
            return;
        }
        String topic = "kcat-" + UUID.randomUUID();
        Infrastructure.createTopics(infra.kafkaBootstrapServers(), List.of(topic));
        try (EventPublisher publisher = new EventPublisher(infra.kafkaBootstrapServers(), registry)) {
            publisher.publish(topic, "k", halted(4242));
        }
        Process kcat = new ProcessBuilder("kcat", "-C", "-b", infra.kafkaBootstrapServers(), "-t", topic,
                "-s", "value=avro", "-r", registry + "/apis/ccompat/v7", "-e")
                .redirectErrorStream(true).start();
        assertThat(kcat.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(kcat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kcat.exitValue()).as(out).isZero();
        assertThat(out).contains("\"processId\": 4242").contains("\"batchMarking\"");
    }

    /** A {@code JobHalted} of {@code processId}; {@link RegistryDeadlineTest} writes it too. */
    static JobHalted halted(long processId) {
        return JobHalted.newBuilder().setHeader(Events.header("test", processId, null))
                .setProcessId(processId).setInstanceExecId(7).setTargetBatchId(44)
                .setBatchMarking("2014-12-16,EOD@2014-12-16").build();
    }

    /** The header as a generic record, its instant as the epoch milliseconds the generic writer expects. */
    private static GenericRecord generic(SpecificRecord header, Schema schema) {
        GenericRecord copy = new GenericData.Record(schema);
        for (Schema.Field f : schema.getFields()) {
            Object value = header.get(f.pos());
            copy.put(f.name(), value instanceof Instant i ? i.toEpochMilli() : value);
        }
        return copy;
    }

    private static GenericRecord releasedBatchEnqueued(Schema released) {
        GenericRecord header = new GenericData.Record(released.getField("header").schema());
        header.put("eventId", UUID.randomUUID().toString());
        header.put("occurredAt", Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
        header.put("producer", "queue-service 0.1.0");
        header.put("schemaVersion", 1);
        GenericRecord event = new GenericData.Record(released);
        for (Schema.Field f : released.getFields()) {
            event.put(f.name(), switch (f.name()) {
                case "header" -> header;
                case "consumerProcessId" -> 5L;
                default -> sample(f.schema());
            });
        }
        return event;
    }

    private static Object sample(Schema schema) {
        return switch (schema.getType()) {
            case UNION -> schema.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL) ? null
                    : sample(schema.getTypes().get(0));
            case LONG -> 1L;
            case INT -> 1;
            case STRING -> "x";
            case BOOLEAN -> false;
            case ARRAY -> List.of();
            default -> throw new IllegalArgumentException("no sample for " + schema);
        };
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(registry + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + " " + r.body()).isEqualTo(200);
        return r.body();
    }

    private HttpResponse<String> post(String path, String schema) throws IOException, InterruptedException {
        String body = "{\"schema\":" + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(schema) + "}";
        return http.send(HttpRequest.newBuilder(URI.create(registry + path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
