package io.batchyard.teststack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Where a service serves its health checks, its meters and its OpenAPI document: its management interface, a port of
 * its own under {@code /q}, never the main port (which answers 404 there). Every test and harness takes these
 * addresses from here, so that which port and path serve them is written once.
 *
 * @param root the management interface's root, {@code http://host:port/q}
 */
public record Management(URI root) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    /** The management interface of a service listening on {@code host} with management port {@code port}. */
    public static Management at(String host, int port) {
        return new Management(URI.create("http://" + host + ":" + port + "/q"));
    }

    /**
     * The management interface of the application a {@code @QuarkusTest} runs: the free port it bound
     * ({@code quarkus.management.test-port=0}), as {@code @TestHTTPResource(management = true)} would inject it.
     */
    public static Management ofApplicationUnderTest() {
        String url = ConfigProvider.getConfig().getValue("test.management.url", String.class);
        return new Management(URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url));
    }

    /** {@code /q/health/ready}: the database and the broker both answer. */
    public URI ready() {
        return resolve("/health/ready");
    }

    /** {@code /q/health/live}. */
    public URI live() {
        return resolve("/health/live");
    }

    /** {@code /q/metrics}, Prometheus' text format. */
    public URI metrics() {
        return resolve("/metrics");
    }

    /** {@code /q/openapi?format=json}. */
    public URI openApi() {
        return resolve("/openapi?format=json");
    }

    /** The meters as a scraper reads them, without a token (see {@link PrometheusText}). */
    public String metricsText() {
        return getOk(metrics());
    }

    /** The service's own OpenAPI document, read without a token. */
    public JsonNode openApiDocument() {
        try {
            return new ObjectMapper().readTree(getOk(openApi()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The status {@code uri} answers a GET without a token with, or -1 when nothing answers. */
    public static int status(URI uri) {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI resolve(String path) {
        return URI.create(root + path);
    }

    private static String getOk(URI uri) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + uri + " answered " + response.statusCode() + ": "
                        + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
