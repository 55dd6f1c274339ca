package io.batchyard.e2e;

import com.sun.net.httpserver.HttpServer;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OpenLineage HTTP backend in the test JVM ({@code POST /api/v1/lineage}): keeps every RunEvent it is sent. Its
 * port is chosen when the class loads, before the shared stack starts, so lineage-service can be told it; it listens
 * only from {@link #start()}.
 */
final class OpenLineageReceiver implements AutoCloseable {

    /** Chosen when the shared stack starts, bound much later: a port outside the kernel's ephemeral range. */
    static final int PORT = io.batchyard.teststack.ChildProcesses.freePort();
    private final List<JsonPath> events = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    private OpenLineageReceiver(HttpServer server) {
        this.server = server;
    }

    static OpenLineageReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", PORT), 0);
        OpenLineageReceiver receiver = new OpenLineageReceiver(server);
        server.createContext("/api/v1/lineage", exchange -> {
            receiver.events.add(new JsonPath(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        server.start();
        return receiver;
    }

    /** The events received for one run, in arrival order. */
    List<JsonPath> of(String runId) {
        return events.stream().filter(e -> runId.equals(e.getString("run.runId"))).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
