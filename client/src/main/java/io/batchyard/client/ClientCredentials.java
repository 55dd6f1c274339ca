package io.batchyard.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * OAuth 2 client credentials: POSTs {@code grant_type=client_credentials} with the client's id and secret (HTTP Basic,
 * which every OpenID Connect provider accepts) and keeps the access token until {@link #MARGIN} before it expires,
 * so a long job never sends a token that lapses in flight.
 */
final class ClientCredentials implements TokenSource {

    static final Duration MARGIN = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final String clientId;
    private final String clientSecret;
    private final String scope;
    private final Clock clock;
    private final HttpClient http;
    private String token;
    private Instant renewAt = Instant.MIN;

    ClientCredentials(URI endpoint, String clientId, String clientSecret, String scope, Clock clock, HttpClient http) {
        if (clientId == null || clientId.isBlank() || clientSecret == null) {
            throw new IllegalArgumentException("client credentials need a client id and a secret");
        }
        this.endpoint = endpoint;
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        this.scope = scope;
        this.clock = clock;
        this.http = http;
    }

    @Override
    public synchronized String token() {
        Instant now = clock.instant();
        if (token == null || !now.isBefore(renewAt)) {
            fetch(now);
        }
        return token;
    }

    @Override
    public synchronized void invalidate() {
        token = null;
    }

    private void fetch(Instant now) {
        String form = "grant_type=client_credentials" + (scope == null || scope.isBlank() ? "" : "&scope=" + enc(scope));
        String basic = java.util.Base64.getEncoder().encodeToString((enc(clientId) + ":" + enc(clientSecret))
                .getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .header("Authorization", "Basic " + basic).POST(HttpRequest.BodyPublishers.ofString(form)).build();
        HttpResponse<String> answer;
        try {
            answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("token endpoint " + endpoint + " unreachable", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while fetching a token", e);
        }
        if (answer.statusCode() != 200) {
            throw new ProblemException(answer.statusCode(), null, "token endpoint refused the client credentials",
                    oauthError(answer.body()));
        }
        try {
            JsonNode n = JSON.readTree(answer.body());
            String t = n.path("access_token").asText(null);
            if (t == null || t.isBlank()) {
                throw new IllegalStateException("token endpoint " + endpoint + " answered without an access_token");
            }
            long expiresIn = n.path("expires_in").asLong(60);
            // A token shorter-lived than twice the margin is renewed half-way instead.
            Duration life = Duration.ofSeconds(Math.max(0, expiresIn));
            Duration keep = life.compareTo(MARGIN.multipliedBy(2)) > 0 ? life.minus(MARGIN) : life.dividedBy(2);
            token = t;
            renewAt = now.plus(keep);
        } catch (IOException e) {
            throw new IllegalStateException("token endpoint " + endpoint + " answered no JSON", e);
        }
    }

    /** The OAuth error of a refusal ("invalid_client: …"), never the secret that was sent. */
    private static String oauthError(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            String error = n.path("error").asText("");
            String description = n.path("error_description").asText("");
            return description.isEmpty() ? error : error + ": " + description;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
