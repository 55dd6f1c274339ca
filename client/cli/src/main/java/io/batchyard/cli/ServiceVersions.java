package io.batchyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * What {@code batchyard --version} says about the services: for each, the version its OpenAPI document declares
 * ({@code info.version} of {@code /q/openapi} on its management interface, open without a token like health) and
 * whether its API, the URL the commands call, answers at all. Nothing here fails: a service that does not answer is
 * reported as such, so the command still prints the CLI's own version and the others'.
 */
final class ServiceVersions {

    /** How long one probe may take: a version line should not keep a terminal waiting. */
    static final Duration TIMEOUT = Duration.ofSeconds(3);

    /**
     * A service the CLI talks to: its URL setting ({@code batchyard.<key>.url}, default port on localhost) and its
     * management interface ({@code batchyard.<key>.management-url}, default: the API's host on the management port
     * the service and deploy/local use).
     */
    record Service(String name, String key, int port, int managementPort) {

        URI api(Function<String, String> setting) {
            String url = setting.apply("batchyard." + key + ".url");
            return URI.create(url != null ? url : "http://localhost:" + port);
        }

        URI management(Function<String, String> setting) {
            String url = setting.apply("batchyard." + key + ".management-url");
            if (url != null) {
                return URI.create(url);
            }
            URI api = api(setting);
            return URI.create(api.getScheme() + "://" + api.getHost() + ":" + managementPort);
        }
    }

    static final List<Service> SERVICES = List.of(new Service("registry-service", "registry", 8081, 9181),
            new Service("execution-service", "execution", 8082, 9182),
            new Service("queue-service", "queue", 8083, 9183),
            new Service("lineage-service", "lineage", 8084, 9184));

    /** One service's answer: its version (null when unknown, {@code versionProblem} says why) and its API's state. */
    record Report(String service, URI api, String version, String versionProblem, String apiProblem) {

        /** {@code registry-service 0.1.0, http://localhost:8081 reachable}, or why not. */
        String line() {
            StringBuilder b = new StringBuilder(service).append(' ');
            b.append(version != null ? version : "version unknown (" + versionProblem + ")");
            b.append(", ").append(api).append(apiProblem == null ? " reachable" : " unreachable (" + apiProblem + ")");
            return b.toString();
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    /**
     * The text of {@code batchyard --version}: the CLI's own version, then a line per service, from the settings of
     * {@code connection} (the environment and the config file: the top command has no flags of its own).
     */
    static List<String> versionLines(Connection connection) {
        List<String> lines = new ArrayList<>();
        String own = ServiceVersions.class.getPackage().getImplementationVersion();
        lines.add("batchyard " + (own == null ? "(development build)" : own));
        Function<String, String> setting;
        try {
            setting = connection.setting();
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            lines.add("services not asked: " + e.getMessage());
            return lines;
        }
        new ServiceVersions().probe(setting).forEach(r -> lines.add(r.line()));
        return lines;
    }

    /** Every service's report, probed side by side (at most {@link #TIMEOUT} or so in all). */
    List<Report> probe(Function<String, String> setting) {
        List<CompletableFuture<Report>> pending = new ArrayList<>();
        for (Service s : SERVICES) {
            URI api = s.api(setting);
            URI openApi = s.management(setting).resolve("/q/openapi?format=json");
            CompletableFuture<Version> version = get(openApi).thenApply(r -> version(r, openApi))
                    .exceptionally(e -> new Version(null, reason(e) + ": " + openApi));
            CompletableFuture<String> reachable = get(api).thenApply(r -> (String) null)
                    .exceptionally(ServiceVersions::reason);
            pending.add(version.thenCombine(reachable,
                    (v, problem) -> new Report(s.name(), api, v.value(), v.problem(), problem)));
        }
        return pending.stream().map(CompletableFuture::join).toList();
    }

    private CompletableFuture<HttpResponse<String>> get(URI uri) {
        return http.sendAsync(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A service's version, or (value null) why it is not known. */
    private record Version(String value, String problem) {
    }

    /** The OpenAPI document's {@code info.version}, or why there is none. */
    private static Version version(HttpResponse<String> answer, URI from) {
        if (answer.statusCode() != 200) {
            return new Version(null, "HTTP " + answer.statusCode() + " from " + from);
        }
        try {
            JsonNode v = Call.JSON.readTree(answer.body()).path("info").path("version");
            return v.isTextual() && !v.asText().isBlank() ? new Version(v.asText(), null)
                    : new Version(null, "no info.version in " + from);
        } catch (java.io.IOException e) {
            return new Version(null, "not an OpenAPI document: " + from);
        }
    }

    /** A failed call in a few words (the cause's class says little to an operator). */
    static String reason(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof HttpConnectTimeoutException || cause instanceof HttpTimeoutException) {
            return "no answer within " + TIMEOUT.toSeconds() + " s";
        }
        if (cause instanceof ConnectException) {
            return cause.getCause() instanceof java.nio.channels.UnresolvedAddressException ? "unknown host"
                    : "connection refused";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }
}
