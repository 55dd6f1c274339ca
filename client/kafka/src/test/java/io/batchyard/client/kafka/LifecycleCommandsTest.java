package io.batchyard.client.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.client.wire.RegistryWire;
import io.batchyard.events.LifecycleCommandType;
import io.batchyard.events.execution.LifecycleCommand;
import java.util.Arrays;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

class LifecycleCommandsTest {

    @Test
    void aCommandIsFramedInTheRegistryWireFormatWithItsCorrelationIdAsEventId() throws Exception {
        LifecycleCommand record = LifecycleCommands.record(Command.haltJob(42, "m1"), "c0ffee00-0000-4000-8000-000000000001");
        byte[] value = RegistryWire.frame(0x01020304, record);

        assertThat(Arrays.copyOf(value, 5)).containsExactly(0, 1, 2, 3, 4);
        GenericRecord read = new GenericDatumReader<GenericRecord>(LifecycleCommand.getClassSchema())
                .read(null, DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, null));
        assertThat(read.get("command")).hasToString("HALT_JOB");
        assertThat(read.get("processId")).isEqualTo(42L);
        assertThat(read.get("batchMarking")).hasToString("m1");
        assertThat(((GenericRecord) read.get("header")).get("eventId"))
                .hasToString("c0ffee00-0000-4000-8000-000000000001");
    }

    @Test
    void theCallsAreTheContractsCommandsEachAnsweredByAnEventOfTheContract() {
        assertThat(Arrays.stream(Command.Type.values()).map(Enum::name))
                .containsExactly(Arrays.stream(LifecycleCommandType.values()).map(Enum::name).toArray(String[]::new));
        for (Command.Type type : Command.Type.values()) {
            assertThat(Schemas.exists(type.answeredBy())).as(type.answeredBy()).isTrue();
        }
    }

    /** The generated event classes of the contract, by simple name. */
    private static final class Schemas {
        static boolean exists(String event) {
            try {
                Class.forName("io.batchyard.events.execution." + event);
                return true;
            } catch (ClassNotFoundException e) {
                return false;
            }
        }
    }

    @Test
    void aRejectionBecomesAProblemWithTheRestCallsCodeTitleAndDetail() {
        GenericRecord rejected = new GenericData.Record(io.batchyard.events.execution.CommandRejected.getClassSchema());
        rejected.put("code", 105);
        rejected.put("message", "The process is not running: The process is not under execution, pid=7");

        CommandRejectedException e = LifecycleCommands.rejection(Command.Type.HALT_JOB, "c1", rejected);

        assertThat(e.code()).isEqualTo(105);
        assertThat(e.status()).isZero();
        assertThat(e.title()).isEqualTo("The process is not running");
        assertThat(e.detail()).isEqualTo("The process is not under execution, pid=7");
        assertThat(e.getMessage()).isEqualTo("HALT_JOB rejected, code 105 The process is not running: The process is"
                + " not under execution, pid=7 (correlation c1)");
    }
}
