package io.batchyard.client.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.batchyard.events.EventHeader;
import io.batchyard.events.lineage.QueryRegistered;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The wire format both ways, against a stand-in for the registry's Confluent-compatible API. */
class RegistryWireTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final QueryRegistered EVENT = QueryRegistered.newBuilder()
            .setHeader(EventHeader.newBuilder().setEventId("c0ffee00-0000-4000-8000-000000000001")
                    .setOccurredAt(Instant.now().truncatedTo(ChronoUnit.MILLIS)).setProducer("test")
                    .setInstanceExecId(1007L).build())
            .setQueryId("q1").setQueryType("HIVE").setQueryText("INSERT INTO TABLE t SELECT a FROM s")
            .setProcessId(42).setInstanceExecId(1007L).setDefaultDatabase("sales").build();

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private HttpServer registry;
    private int status = 200;

    @BeforeEach
    void startRegistry() throws IOException {
        registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        registry.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            requests.add(exchange.getRequestMethod() + " " + path + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            String answer = path.endsWith("/schemas/ids/7")
                    ? new ObjectMapper().writeValueAsString(Map.of("schema", QueryRegistered.getClassSchema().toString()))
                    : "{\"id\":7}";
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        registry.start();
    }

    @AfterEach
    void stopRegistry() {
        registry.stop(0);
    }

    @Test
    void aRecordIsMagicByteSchemaIdAndItsAvroBody() throws IOException {
        byte[] bytes = RegistryWire.frame(0x01020304, EVENT);
        assertThat(Arrays.copyOf(bytes, 5)).containsExactly(0, 1, 2, 3, 4);
        QueryRegistered decoded = new SpecificDatumReader<>(QueryRegistered.class)
                .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
        assertThat(decoded).isEqualTo(EVENT);
    }

    @Test
    void theSchemaIsRegisteredOnceUnderItsTopicRecordSubjectAndAValueReadsBackWithTheWriterSchema() throws Exception {
        RegistryWire wire = new RegistryWire(url() + "/", TIMEOUT);
        byte[] first = wire.frame("batchyard.lineage.queries", EVENT, TIMEOUT);
        byte[] second = wire.frame("batchyard.lineage.queries", EVENT, TIMEOUT);
        assertThat(Arrays.copyOf(first, 5)).containsExactly(0, 0, 0, 0, 7);
        assertThat(second).isEqualTo(first);
        assertThat(requests).singleElement().satisfies(r -> assertThat(r)
                .startsWith("POST /apis/ccompat/v7/subjects/batchyard.lineage.queries-"
                        + "io.batchyard.events.lineage.QueryRegistered/versions {\"schema\":\"")
                .contains("QueryRegistered").contains("EventHeader"));

        GenericRecord read = wire.read(first, TIMEOUT);
        assertThat(read.get("queryText")).hasToString(EVENT.getQueryText());
        assertThat(read.get("processId")).isEqualTo(42L);
        assertThat(((GenericRecord) read.get("header")).get("eventId")).hasToString(EVENT.getHeader().getEventId());
        wire.read(second, TIMEOUT);
        assertThat(requests).hasSize(2).last().isEqualTo("GET /apis/ccompat/v7/schemas/ids/7 ");
        assertThat(wire.read(new byte[] {1, 0, 0, 0, 7, 0}, TIMEOUT)).as("not the wire format").isNull();
        assertThat(wire.read(new byte[] {0, 0, 0}, TIMEOUT)).isNull();
    }

    @Test
    void aRegistryRefusalIsAnIoException() {
        status = 500;
        RegistryWire wire = new RegistryWire(url(), TIMEOUT);
        assertThatThrownBy(() -> wire.frame("t", EVENT, TIMEOUT)).isInstanceOf(IOException.class)
                .hasMessage("the schema registry answered 500 to the registration of t-"
                        + "io.batchyard.events.lineage.QueryRegistered");
    }

    @Test
    void theSchemaTextIsAValidJsonString() {
        assertThat(RegistryWire.jsonString("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    private String url() {
        return "http://127.0.0.1:" + registry.getAddress().getPort();
    }
}
