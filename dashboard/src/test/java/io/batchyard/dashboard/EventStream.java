package io.batchyard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A page's event stream ({@code GET /api/stream}) as a browser holds it: open from its first snapshot until closed. */
final class EventStream implements AutoCloseable {

    private final InputStream body;
    private final JsonNode first;

    private EventStream(InputStream body, JsonNode first) {
        this.body = body;
        this.first = first;
    }

    /** Opens the stream with {@code token} and reads the snapshot it sends at once. */
    static EventStream open(String token) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port
                        + "/api/stream")).header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(30)).GET().build();
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(request,
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.startsWith("data:")) {
                return new EventStream(response.body(), new ObjectMapper().readTree(line.substring("data:".length())));
            }
        }
        response.body().close();
        throw new AssertionError("the stream ended without a snapshot");
    }

    /** The first snapshot the stream sent. */
    JsonNode first() {
        return first;
    }

    /** Closes the connection, as a page that goes away does. */
    @Override
    public void close() throws Exception {
        body.close();
    }
}
