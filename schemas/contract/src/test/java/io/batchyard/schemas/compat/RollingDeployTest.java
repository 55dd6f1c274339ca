package io.batchyard.schemas.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.events.EventHeader;
import io.batchyard.events.execution.JobHalted;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * A rolling deploy upgrades producers and consumers in any order, so an added field must work both ways: a consumer
 * still on the released contract reads records of the next version, and an upgraded consumer reads records a not yet
 * upgraded producer wrote. Shown on the real {@code JobHalted} plus a field with a default, as the next version
 * would add it.
 */
class RollingDeployTest {

    private static final Schema CURRENT = JobHalted.getClassSchema();
    private static final Schema NEXT = withField(CURRENT,
            new Schema.Field("attempt", Schema.create(Schema.Type.INT), "Which try of the run halted.", 1));

    @Test
    void theNextVersionIsFullyCompatibleWithTheCurrentOne() {
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(NEXT, CURRENT).getType())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(CURRENT, NEXT).getType())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }

    @Test
    void oldConsumerReadsARecordOfTheNextVersion() throws IOException {
        GenericRecord header = new GenericData.Record(CURRENT.getField("header").schema());
        header.put("eventId", "e-1");
        header.put("occurredAt", 1_700_000_000_000L);
        header.put("producer", "execution-service");
        header.put("schemaVersion", 2);
        header.put("instanceExecId", 7L);
        header.put("correlationId", null);
        GenericRecord next = new GenericData.Record(NEXT);
        next.put("header", header);
        next.put("processId", 123L);
        next.put("instanceExecId", 7L);
        next.put("targetBatchId", 44L);
        next.put("batchMarking", "2014-12-16,EOD@2014-12-16");
        next.put("attempt", 3);

        byte[] bytes = write(new GenericDatumWriter<>(NEXT), next);
        // The old consumer: its generated class, resolving the writer's (next) schema against its own.
        JobHalted read = read(new SpecificDatumReader<>(NEXT, CURRENT, SpecificData.getForClass(JobHalted.class)), bytes);

        assertThat(read.getProcessId()).isEqualTo(123L);
        assertThat(read.getInstanceExecId()).isEqualTo(7L);
        assertThat(read.getTargetBatchId()).isEqualTo(44L);
        assertThat(read.getBatchMarking()).isEqualTo("2014-12-16,EOD@2014-12-16");
        assertThat(read.getHeader().getEventId()).isEqualTo("e-1");
        assertThat(read.getHeader().getOccurredAt()).isEqualTo(Instant.ofEpochMilli(1_700_000_000_000L));
        assertThat(read.getHeader().getSchemaVersion()).isEqualTo(2);
    }

    @Test
    void newConsumerReadsARecordOfTheCurrentVersionWithTheDefault() throws IOException {
        JobHalted current = JobHalted.newBuilder()
                .setHeader(EventHeader.newBuilder().setEventId("e-2").setOccurredAt(Instant.ofEpochMilli(1_700_000_000_000L))
                        .setProducer("execution-service").setInstanceExecId(8L).build())
                .setProcessId(321).setInstanceExecId(8).setTargetBatchId(55).setBatchMarking(null)
                .build();

        byte[] bytes = write(new SpecificDatumWriter<>(JobHalted.class), current);
        GenericRecord read = read(new GenericDatumReader<>(CURRENT, NEXT), bytes);

        assertThat(read.get("attempt")).isEqualTo(1);
        assertThat(read.get("processId")).isEqualTo(321L);
        assertThat(read.get("instanceExecId")).isEqualTo(8L);
        assertThat(read.get("targetBatchId")).isEqualTo(55L);
        assertThat(read.get("batchMarking")).isNull();
        GenericRecord header = (GenericRecord) read.get("header");
        assertThat(header.get("eventId").toString()).isEqualTo("e-2");
        assertThat(header.get("occurredAt")).isEqualTo(1_700_000_000_000L);
        assertThat(header.get("schemaVersion")).isEqualTo(1);
    }

    private static Schema withField(Schema record, Schema.Field added) {
        List<Schema.Field> fields = new ArrayList<>();
        record.getFields().forEach(field -> fields.add(new Schema.Field(field, field.schema())));
        fields.add(added);
        return Schema.createRecord(record.getName(), record.getDoc(), record.getNamespace(), false, fields);
    }

    private static <T> byte[] write(DatumWriter<T> writer, T datum) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(out, null);
        writer.write(datum, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static <T> T read(DatumReader<T> reader, byte[] bytes) throws IOException {
        return reader.read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    }
}
