package io.batchyard.schemas.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.ReleasedSchemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Test;

/**
 * Records written by a producer built from a released contract are still read: the decoder knows the released
 * writer schemas (shipped in the contract jar, listed in {@code avro-released/index.txt}) and resolves them to today's
 * classes, a field added since taking its default.
 */
class ReleasedRecordsTest {

    private static final Path RELEASED = Path.of("src", "main", "avro-released");

    @Test
    void theIndexListsExactlyTheReleasedSchemaFiles() throws IOException {
        List<String> files;
        try (Stream<Path> walk = Files.walk(RELEASED)) {
            files = walk.filter(f -> f.toString().endsWith(".avsc")).map(f -> RELEASED.relativize(f).toString())
                    .sorted().toList();
        }
        List<String> index = Files.readAllLines(RELEASED.resolve("index.txt")).stream().map(String::strip)
                .filter(line -> !line.isEmpty()).sorted().toList();
        assertThat(index).as("avro-released/index.txt (regenerate it when cutting a release)").isEqualTo(files);
        assertThat(ReleasedSchemas.byVersion()).containsKey("0.1.0");
    }

    @Test
    void aRecordWrittenWithTheReleasedSchemaDecodesToTodaysClass() throws IOException {
        Schema released = ReleasedSchemas.byVersion().get("0.1.0").get(BatchEnqueued.getClassSchema().getFullName());
        Schema header = released.getField("header").schema();
        GenericRecord h = new GenericData.Record(header);
        h.put("eventId", "6f1c1d7e-0000-4000-8000-000000000001");
        h.put("occurredAt", Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
        h.put("producer", "queue-service 0.1.0");
        h.put("schemaVersion", 1);
        GenericRecord event = new GenericData.Record(released);
        event.put("header", h);
        for (Schema.Field field : released.getFields()) {
            if (!field.name().equals("header")) {
                event.put(field.name(), sample(field.schema()));
            }
        }
        byte[] bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), released).encode(event).array();

        Object decoded = EventCodec.decode(bytes, BatchEnqueued.class);
        assertThat(decoded).isInstanceOf(BatchEnqueued.class);
        BatchEnqueued e = (BatchEnqueued) decoded;
        assertThat(e.getHeader().getEventId()).isEqualTo("6f1c1d7e-0000-4000-8000-000000000001");
        assertThat(e.getHeader().getProducer()).isEqualTo("queue-service 0.1.0");
        if (header.getField("actor") == null) {
            // the field added since 0.1.0 takes its default
            assertThat(e.getHeader().getActor()).isNull();
        }
    }

    /** A value of the field's type (the first non-null branch of a union). */
    private static Object sample(Schema schema) {
        return switch (schema.getType()) {
            case UNION -> schema.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL) ? null
                    : sample(schema.getTypes().get(0));
            case LONG -> 7L;
            case INT -> 7;
            case STRING -> "x";
            case BOOLEAN -> true;
            case DOUBLE -> 1.0;
            case ENUM -> new GenericData.EnumSymbol(schema, schema.getEnumSymbols().get(0));
            case ARRAY -> List.of();
            default -> throw new IllegalStateException("no sample for " + schema);
        };
    }
}
