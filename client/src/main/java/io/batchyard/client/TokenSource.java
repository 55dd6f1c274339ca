package io.batchyard.client;

import java.net.URI;
import java.nio.file.Path;

/**
 * Where the bearer token of each call comes from. The services accept any token of the OpenID Connect issuer they
 * trust that carries the call's role ({@code operator} for lifecycle calls, files and log writes, {@code viewer} for
 * reads).
 */
public interface TokenSource {

    /** The token to send now (without the "Bearer " prefix). */
    String token();

    /** The service answered 401 with the last token: forget any cached one so the next {@link #token()} is fresh. */
    default void invalidate() {
    }

    /** The same token for every call (tests, short jobs handed a token by their scheduler). */
    static TokenSource of(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("the static token is empty");
        }
        String t = token.trim();
        return () -> t;
    }

    /** The content of a file, read again on every call, so whoever renews the token only rewrites the file. */
    static TokenSource file(Path file) {
        return new TokenFile(file);
    }

    /** The client-credentials grant against an OpenID Connect token endpoint, cached until shortly before expiry. */
    static TokenSource clientCredentials(URI tokenEndpoint, String clientId, String clientSecret, String scope) {
        return new ClientCredentials(tokenEndpoint, clientId, clientSecret, scope, java.time.Clock.systemUTC(),
                java.net.http.HttpClient.newBuilder().connectTimeout(java.time.Duration.ofSeconds(10)).build());
    }
}
