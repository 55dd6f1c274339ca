package io.batchyard.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenSourceTest {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aStaticTokenIsTrimmedAndAnEmptyOneRefused() {
        assertThat(TokenSource.of(" abc \n").token()).isEqualTo("abc");
        assertThatThrownBy(() -> TokenSource.of(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTokenFileIsReadOnEveryCall(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "\n  first  \n");
        TokenSource tokens = TokenSource.file(file);
        assertThat(tokens.token()).isEqualTo("first");
        Files.writeString(file, "Bearer second\n");
        assertThat(tokens.token()).isEqualTo("second");
        Files.writeString(file, "  \n");
        assertThatThrownBy(tokens::token).hasMessageContaining("is empty");
    }

    @Test
    void clientCredentialsAreExchangedOnceAndRenewedBeforeExpiry() throws Exception {
        AtomicInteger issued = new AtomicInteger();
        List<String> forms = new CopyOnWriteArrayList<>();
        List<String> auths = new CopyOnWriteArrayList<>();
        URI endpoint = tokenEndpoint(200, ex -> {
            forms.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            auths.add(ex.getRequestHeaders().getFirst("Authorization"));
            return "{\"access_token\":\"t" + issued.incrementAndGet() + "\",\"expires_in\":300}";
        });
        MutableClock clock = new MutableClock();
        TokenSource tokens = new ClientCredentials(endpoint, "oozie", "s3cret", "batchyard", clock,
                HttpClient.newHttpClient());

        assertThat(tokens.token()).isEqualTo("t1");
        clock.advance(Duration.ofSeconds(269));
        assertThat(tokens.token()).as("still valid for more than the margin").isEqualTo("t1");
        clock.advance(Duration.ofSeconds(1));
        assertThat(tokens.token()).as("renewed 30 s before expiry").isEqualTo("t2");
        tokens.invalidate();
        assertThat(tokens.token()).as("a 401 makes the next call fetch").isEqualTo("t3");

        assertThat(forms.get(0)).isEqualTo("grant_type=client_credentials&scope=batchyard");
        assertThat(auths.get(0)).isEqualTo("Basic " + java.util.Base64.getEncoder()
                .encodeToString("oozie:s3cret".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aShortLivedTokenIsRenewedHalfWay() throws Exception {
        AtomicInteger issued = new AtomicInteger();
        URI endpoint = tokenEndpoint(200,
                ex -> "{\"access_token\":\"t" + issued.incrementAndGet() + "\",\"expires_in\":40}");
        MutableClock clock = new MutableClock();
        TokenSource tokens = new ClientCredentials(endpoint, "c", "s", null, clock, HttpClient.newHttpClient());
        assertThat(tokens.token()).isEqualTo("t1");
        clock.advance(Duration.ofSeconds(19));
        assertThat(tokens.token()).isEqualTo("t1");
        clock.advance(Duration.ofSeconds(1));
        assertThat(tokens.token()).isEqualTo("t2");
    }

    @Test
    void aRefusalSaysTheOauthErrorButNotTheSecret() throws Exception {
        URI endpoint = tokenEndpoint(401,
                ex -> "{\"error\":\"invalid_client\",\"error_description\":\"Invalid client credentials\"}");
        TokenSource tokens = new ClientCredentials(endpoint, "c", "top-secret", null, Clock.systemUTC(),
                HttpClient.newHttpClient());
        assertThatThrownBy(tokens::token).isInstanceOfSatisfying(ProblemException.class, e -> {
            assertThat(e.status()).isEqualTo(401);
            assertThat(e.detail()).isEqualTo("invalid_client: Invalid client credentials");
            assertThat(e.getMessage()).doesNotContain("top-secret");
        });
    }

    @Test
    void settingsPickStaticThenFileThenClientCredentials(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t");
        Files.writeString(file, "from-file");
        assertThat(ClientSettings.tokens(Map.of("batchyard.token", "s", "batchyard.token.file", file.toString())::get)
                .token()).isEqualTo("s");
        assertThat(ClientSettings.tokens(Map.of("batchyard.token.file", file.toString())::get).token())
                .isEqualTo("from-file");
        assertThat(ClientSettings.tokens(Map.of("batchyard.oidc.token-url", "http://localhost:1/token",
                "batchyard.oidc.client-id", "c", "batchyard.oidc.client-secret", "s")::get))
                .isInstanceOf(ClientCredentials.class);
        assertThatThrownBy(() -> ClientSettings.tokens(Map.<String, String>of()::get))
                .hasMessageContaining("no Batchyard token configured");
    }

    interface Answer {
        String body(com.sun.net.httpserver.HttpExchange ex) throws java.io.IOException;
    }

    private URI tokenEndpoint(int status, Answer answer) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/token", ex -> {
            byte[] body = answer.body(ex).getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/token");
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-05-01T10:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
