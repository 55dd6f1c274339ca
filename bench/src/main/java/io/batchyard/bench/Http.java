package io.batchyard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Minimal JSON-over-HTTP client for the benchmark. Every call carries the bearer token in {@code BATCHYARD_TOKEN}
 * (an environment variable rather than an argument, so that it stays out of the process list); bench/run.sh and
 * bench/compaction.sh get one from deploy/local/token.sh.
 */
final class Http {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String authorization;

    Http() {
        String token = System.getenv("BATCHYARD_TOKEN");
        if (token == null || token.isBlank()) {
            throw new IllegalStateException("BATCHYARD_TOKEN is not set: every Batchyard call needs a bearer token "
                    + "(deploy/local/token.sh bench developer,operator prints one for the local stack)");
        }
        this.authorization = "Bearer " + token.strip();
    }

    record Reply(int status, JsonNode body) {
    }

    Reply send(String method, String url, Object body) {
        return send(method, url, body, Duration.ofSeconds(30));
    }

    /** A call that may take longer than the usual 30 s (a bulk apply in one transaction). */
    Reply send(String method, String url, Object body, Duration timeout) {
        try {
            HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                    .header("Content-Type", "application/json").header("Authorization", authorization)
                    .method(method, publisher).build();
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode json = response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
            return new Reply(response.statusCode(), json);
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + url + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    JsonNode expect(int status, String method, String url, Object body) {
        Reply reply = send(method, url, body);
        if (reply.status() != status) {
            throw new IllegalStateException(method + " " + url + " -> " + reply.status() + " " + reply.body());
        }
        return reply.body();
    }
}
