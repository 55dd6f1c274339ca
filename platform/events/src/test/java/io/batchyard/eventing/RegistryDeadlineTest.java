package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.batchyard.events.execution.JobHalted;
import io.batchyard.schemas.kafka.EventDeserializer;
import io.batchyard.schemas.kafka.EventSerializer;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.RegistrySerdes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A schema registry that accepts a connection and then says nothing does not hold the serdes' callers for ever: the
 * request is given up on after the idle deadline, like a refused connection, and the next attempt reaches the registry.
 * Between the serdes and the real registry of the test stack sits a relay whose first connection is swallowed (read,
 * never answered) and whose later connections are passed through.
 */
class RegistryDeadlineTest {

    private static final int IDLE_MS = 1_000;

    private final String registry = Infrastructure.get().schemaRegistryUrl();
    private SilentFirstConnection relay;

    @BeforeEach
    void start() throws IOException {
        relay = new SilentFirstConnection(URI.create(registry));
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    @Test
    void aReadWaitsOutARegistryThatSaysNothingThenDecodesFromTheNextConnection() {
        String topic = "deadline-" + UUID.randomUUID();
        JobHalted halted = RegistryWireFormatTest.halted(4343);
        RecordHeaders headers = new RecordHeaders();
        byte[] bytes;
        try (EventSerializer serializer = RegistrySerdes.serializer(registry)) {
            bytes = serializer.serialize(topic, headers, halted);
        }

        long started = System.nanoTime();
        Object decoded = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (EventDeserializer deserializer = new EventDeserializer()) {
                deserializer.configure(throughRelay(), false);
                return deserializer.deserialize(topic, headers, bytes);
            }
        });
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(decoded).isEqualTo(halted);
        assertThat(relay.connections()).as("the swallowed connection and at least one passed through")
                .isGreaterThanOrEqualTo(2);
        assertThat(tookMs).as("given up on after the idle deadline, not before").isGreaterThanOrEqualTo(IDLE_MS);
    }

    @Test
    void aWriteThatMustRegisterItsSchemaGivesUpTheSilentConnectionAfterTheDeadlineAndGoesThroughOnANewOne() {
        String topic = "deadline-" + UUID.randomUUID();
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (EventSerializer serializer = new EventSerializer()) {
                serializer.configure(throughRelay(), false);
                // The write waits out the deadline on the silent connection, then the serializer tries again on a
                // new connection, which the relay passes through: the write succeeds instead of holding the thread.
                long started = System.nanoTime();
                byte[] first = serializer.serialize(topic, new RecordHeaders(), RegistryWireFormatTest.halted(1));
                assertThat(first[0]).isZero();
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(
                        Duration.ofMillis(IDLE_MS));
                byte[] bytes = serializer.serialize(topic, new RecordHeaders(), RegistryWireFormatTest.halted(2));
                assertThat(bytes[0]).isZero();
            }
        });
        assertThat(relay.connections()).isGreaterThanOrEqualTo(2);
    }

    /** The test stack's serde settings, pointed at the relay, with a short idle deadline. */
    private Map<String, Object> throughRelay() {
        Map<String, Object> config = RegistrySerdes.config(relay.url());
        config.put("batchyard.registry.idle-timeout-ms", String.valueOf(IDLE_MS));
        return config;
    }

    /** A TCP relay to the registry that reads its first connection and never answers it; later ones pass through. */
    private static final class SilentFirstConnection implements AutoCloseable {

        private final ServerSocket server;
        private final URI target;
        private final AtomicInteger accepted = new AtomicInteger();
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        SilentFirstConnection(URI target) throws IOException {
            this.target = target;
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(this::accept, "silent-registry-relay");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        int connections() {
            return accepted.get();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    sockets.add(client);
                    if (accepted.incrementAndGet() == 1) {
                        pump(client.getInputStream(), OutputStream.nullOutputStream());
                    } else {
                        Socket upstream = new Socket(target.getHost(), target.getPort());
                        sockets.add(upstream);
                        pump(client.getInputStream(), upstream.getOutputStream());
                        pump(upstream.getInputStream(), client.getOutputStream());
                    }
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void pump(InputStream in, OutputStream out) {
            Thread pump = new Thread(() -> {
                try (in; out) {
                    in.transferTo(out);
                } catch (IOException e) {
                    // one side closed: the connection is over
                }
            }, "silent-registry-relay-pump");
            pump.setDaemon(true);
            pump.start();
        }

        @Override
        public void close() {
            try {
                server.close();
            } catch (IOException e) {
                // closing anyway
            }
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        }
    }
}
