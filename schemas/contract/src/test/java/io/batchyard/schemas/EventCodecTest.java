package io.batchyard.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.schemas.kafka.EventDeserializer;
import io.batchyard.schemas.kafka.EventSerializer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class EventCodecTest {

    @Test
    void theDeserializerReadsRecordsOfReleasesBeforeTheRegistryByTheirTypeHeader() {
        JobHalted halted = JobHalted.newBuilder()
                .setHeader(Events.header("test", 7L, null))
                .setProcessId(123).setInstanceExecId(7).setTargetBatchId(44)
                .setBatchMarking("2014-12-16,EOD@2014-12-16")
                .build();
        byte[] bytes = EventCodec.encode(halted);
        assertThat(EventCodec.isSingleObject(bytes)).isTrue();
        RecordHeaders headers = new RecordHeaders();
        headers.add(EventSerializer.EVENT_TYPE_HEADER, "JobHalted".getBytes(StandardCharsets.UTF_8));

        SpecificRecord decoded = new EventDeserializer().deserialize("t", headers, bytes);

        assertThat(decoded).isInstanceOf(JobHalted.class).isEqualTo(halted);
        assertThat(Events.eventId(decoded).toString()).isEqualTo(halted.getHeader().getEventId());
    }

    @Test
    void decodesNestedRecordsAndArrays() {
        ProcessDefinition parent = definition(10, null);
        ProcessRegistered registered = ProcessRegistered.newBuilder()
                .setHeader(Events.header("registry-service", null, null))
                .setParentProcessId(10).setChangedProcessIds(List.of(10L, 11L))
                .setParent(parent).setSteps(List.of(definition(11, 10L)))
                .build();
        ProcessRegistered decoded = EventCodec.decode(EventCodec.encode(registered), ProcessRegistered.class);
        assertThat(decoded).isEqualTo(registered);
        assertThat(decoded.getSteps().get(0).getProperties()).extracting(p -> p.getValue()).containsExactly("run.sh");
    }

    @Test
    void rejectsForeignBytesInsteadOfGuessing() {
        EventDeserializer deserializer = new EventDeserializer();
        RecordHeaders typed = new RecordHeaders();
        typed.add(EventSerializer.EVENT_TYPE_HEADER, "JobHalted".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> deserializer.deserialize("t", typed, "{\"json\":true}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(EventCodec.UnknownEventException.class);
        byte[] unknownFingerprint = {(byte) 0xC3, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0};
        assertThatThrownBy(() -> deserializer.deserialize("t", typed, unknownFingerprint))
                .isInstanceOf(EventCodec.UnknownEventException.class)
                .hasMessageContaining("fingerprint");
        byte[] halted = EventCodec.encode(JobHalted.newBuilder().setHeader(Events.header("test", 7L, null))
                .setProcessId(1).setInstanceExecId(1).setTargetBatchId(1).setBatchMarking(null).build());
        assertThatThrownBy(() -> deserializer.deserialize("t", new RecordHeaders(), halted))
                .isInstanceOf(EventCodec.UnknownEventException.class)
                .hasMessageContaining("event-type");
        byte[] framed = {0, 0, 0, 0, 7, 2, 4, 6};
        assertThatThrownBy(() -> deserializer.deserialize("t", typed, framed))
                .isInstanceOf(EventCodec.UnknownEventException.class)
                .hasMessageContaining("no schema registry");
    }

    @Test
    void everyEventHasADistinctFingerprintAndAHeaderFirst() {
        Set<Long> fingerprints = new HashSet<>();
        for (Class<? extends SpecificRecord> type : EventCatalog.EVENT_TYPES) {
            assertThat(fingerprints.add(EventCatalog.fingerprint(type))).as(type.getSimpleName()).isTrue();
            Schema schema = SpecificData.get().getSchema(type);
            assertThat(schema.getFields().get(0).name()).as(type.getSimpleName()).isEqualTo("header");
        }
    }

    /** Secrets never travel on the bus: a field named like a credential fails the build. */
    @Test
    void noEventCarriesACredentialLikeField() {
        Pattern secretLike = Pattern.compile("(?i).*(password|secret|private_?key|token|credential).*");
        for (Class<? extends SpecificRecord> type : EventCatalog.EVENT_TYPES) {
            assertNoSecretFields(SpecificData.get().getSchema(type), secretLike, new HashSet<>());
        }
    }

    private static void assertNoSecretFields(Schema schema, Pattern secretLike, Set<String> seen) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!seen.add(schema.getFullName())) {
                    return;
                }
                for (Schema.Field field : schema.getFields()) {
                    assertThat(field.name()).as(schema.getFullName()).doesNotMatch(secretLike);
                    assertNoSecretFields(field.schema(), secretLike, seen);
                }
            }
            case UNION -> schema.getTypes().forEach(s -> assertNoSecretFields(s, secretLike, seen));
            case ARRAY -> assertNoSecretFields(schema.getElementType(), secretLike, seen);
            default -> { }
        }
    }

    private static ProcessDefinition definition(long id, Long parent) {
        return ProcessDefinition.newBuilder()
                .setProcessId(id).setProcessName("p" + id).setDescription("d").setBusDomainId(1)
                .setProcessTypeId(parent == null ? 1 : 12).setParentProcessId(parent).setCanRecover(true)
                .setEnqueuingProcessIds(List.of()).setBatchCutPattern(null).setNextProcessIds(List.of(11L))
                .setDeleted(false).setWorkflowTypeId(parent == null ? 1 : 0).setProcessTemplateId(null)
                .setProcessCode("code-" + id)
                .setProperties(List.of(new io.batchyard.events.ProcessProperty("script", "run", "run.sh")))
                .build();
    }
}
