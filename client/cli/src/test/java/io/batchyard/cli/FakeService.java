package io.batchyard.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import picocli.CommandLine;

/**
 * A service on a free local port answering set bodies by path (query strings ignored), for running commands without the
 * stack; every other path answers 404 with a problem body. Also runs the command line the way main does.
 */
final class FakeService implements AutoCloseable {

    record Answer(int status, String contentType, String body) {
    }

    record Run(int status, String out, String err) {
    }

    /** A request as it came: method, path with its query string, body. */
    record Request(String method, String uri, String body) {
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeService() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            Answer a = answers.getOrDefault(exchange.getRequestURI().getPath(), new Answer(404,
                    "application/problem+json", "{\"status\":404,\"title\":\"Not Found\"}"));
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", a.contentType());
            exchange.sendResponseHeaders(a.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    FakeService answer(String path, int status, String json) {
        answers.put(path, new Answer(status, status < 400 ? "application/json" : "application/problem+json", json));
        return this;
    }

    /** Every request so far, in arrival order. */
    List<Request> requests() {
        return List.copyOf(requests);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * Points the command line at this service as execution-service, with a token, one attempt per call and a config
     * home of the test's own; {@link #close} does not undo it, {@link #restoreEnvironment} does.
     */
    FakeService asExecution(java.nio.file.Path home) {
        Connection.environment = java.util.Map.of("BATCHYARD_TOKEN", "t", "BATCHYARD_EXECUTION_URL", url(),
                "BATCHYARD_RETRY_MAX_ATTEMPTS", "1", "XDG_CONFIG_HOME", home.toString())::get;
        return this;
    }

    static void restoreEnvironment() {
        Connection.environment = System::getenv;
    }

    /** A local URL nothing listens on (the port was free a moment ago). */
    static String closedUrl() {
        try (ServerSocket s = new ServerSocket(0)) {
            return "http://127.0.0.1:" + s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Run run(String... argv) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = new CommandLine(new BatchyardCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(argv);
        return new Run(status, out.toString(), err.toString());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
