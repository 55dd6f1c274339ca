package io.batchyard.client.hive;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.batchyard.client.wire.RegistryWire;
import io.batchyard.events.lineage.QueryRegistered;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.junit.jupiter.api.Test;

/** The sender without a Batchyard to talk to: it frames records as the registry wants and never fails a query. */
class QuerySenderTest {

    private static final ExecutedQuery QUERY = new ExecutedQuery(UUID.randomUUID(),
            "INSERT INTO TABLE t SELECT a FROM s", 42, 1007L, "sales");

    @Test
    void aRecordIsTheRegistryWireFormatOfTheQuery() throws IOException {
        QueryRegistered event = QuerySender.event(QUERY);
        byte[] bytes = RegistryWire.frame(0x01020304, event);
        assertThat(Arrays.copyOf(bytes, 5)).containsExactly(0, 1, 2, 3, 4);
        QueryRegistered decoded = new SpecificDatumReader<>(QueryRegistered.class)
                .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
        assertThat(decoded).isEqualTo(event);
        assertThat(decoded.getQueryType()).isEqualTo("HIVE");
        assertThat(decoded.getQueryId()).isEqualTo(QUERY.queryId().toString());
        assertThat(decoded.getProcessId()).isEqualTo(42);
        assertThat(decoded.getInstanceExecId()).isEqualTo(1007L);
        assertThat(decoded.getHeader().getInstanceExecId()).isEqualTo(1007L);
        assertThat(decoded.getDefaultDatabase()).isEqualTo("sales");
        assertThat(decoded.getHeader().getProducer()).isEqualTo("batchyard-hive-hook");
    }

    @Test
    void anUnreachableRegistryDropsTheQueryWithinTheTimeoutAndPausesSending() throws IOException {
        QuerySender sender = new QuerySender(settings("127.0.0.1:" + closedPort(),
                "http://127.0.0.1:" + closedPort(), 500, 60_000));
        long start = System.nanoTime();
        assertThat(sender.send(QUERY)).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        // Paused: dropped without trying, well below the 500 ms send timeout.
        start = System.nanoTime();
        assertThat(sender.send(QUERY)).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(300));
        sender.close();
    }

    @Test
    void anUnreachableBrokerDropsTheQueryAfterTheSendTimeoutAndSendingResumesAfterThePause() throws Exception {
        List<String> registrations = new CopyOnWriteArrayList<>();
        HttpServer registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        registry.createContext("/", exchange -> {
            registrations.add(exchange.getRequestURI().getPath() + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "{\"id\":7}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        registry.start();
        // A timeout the registry's first answer meets even on a loaded machine; the broker then takes all of it.
        try (QuerySender sender = new QuerySender(settings("127.0.0.1:" + closedPort(),
                "http://127.0.0.1:" + registry.getAddress().getPort(), 1500, 300))) {
            long start = System.nanoTime();
            assertThat(sender.send(QUERY)).isFalse();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(1400)).isLessThan(Duration.ofSeconds(8));
            assertThat(registrations).singleElement().satisfies(r -> assertThat(r)
                    .startsWith("/apis/ccompat/v7/subjects/batchyard.lineage.queries-"
                            + "io.batchyard.events.lineage.QueryRegistered/versions {\"schema\":\"")
                    .contains("QueryRegistered").contains("EventHeader"));
            Thread.sleep(350); // past the pause: the next query is tried again (and the schema id is remembered)
            start = System.nanoTime();
            assertThat(sender.send(QUERY)).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1400));
            assertThat(registrations).hasSize(1);
        } finally {
            registry.stop(0);
        }
    }

    private static HookSettings settings(String bootstrap, String registry, long timeoutMs, long pauseMs) {
        return HookSettings.from(Map.of(HookSettings.BOOTSTRAP_SERVERS, bootstrap, HookSettings.REGISTRY_URL, registry,
                HookSettings.SEND_TIMEOUT_MS, String.valueOf(timeoutMs), HookSettings.PAUSE_AFTER_FAILURE_MS,
                String.valueOf(pauseMs))::get, Map.of());
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

}
