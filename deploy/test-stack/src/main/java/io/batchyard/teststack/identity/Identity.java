package io.batchyard.teststack.identity;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who test callers are: the token issuer the services under test trust, and bearer tokens for any user, roles and
 * groups. Chosen once per JVM, like PostgreSQL and Kafka in {@code Infrastructure}.
 */
public abstract class Identity {

    /** The user test calls act as unless a test says otherwise. */
    public static final String ADMIN_USER = "test-admin";

    /**
     * The audience every Batchyard service requires in a token ({@code quarkus.oidc.token.audience}, api-support's
     * default); every token this issuer hands out carries it.
     */
    public static final String AUDIENCE = "batchyard";

    private static volatile Identity instance;

    private final Map<String, String> tokens = new ConcurrentHashMap<>();

    public static Identity get() {
        Identity local = instance;
        if (local == null) {
            synchronized (Identity.class) {
                local = instance;
                if (local == null) {
                    local = start();
                    System.out.println("[batchyard-test-stack] identity: " + local.description());
                    instance = local;
                }
            }
        }
        return local;
    }

    private static Identity start() {
        return SigningKeyIdentity.generate();
    }

    /** The configuration a service needs to verify this issuer's tokens (Quarkus property names). */
    public abstract Map<String, String> serviceConfig();

    /** Where the tokens come from, for the test log. */
    public abstract String description();

    /** A fresh bearer token (no "Bearer " prefix) for {@code user} with these roles and groups. */
    protected abstract String issue(String user, Set<String> roles, Set<String> groups);

    /** A bearer token for {@code user}; the same one for the same user, roles and groups within a JVM. */
    public String token(String user, Set<String> roles, Set<String> groups) {
        String key = user + "|" + new java.util.TreeSet<>(roles) + "|" + new java.util.TreeSet<>(groups);
        return tokens.computeIfAbsent(key, k -> issue(user, roles, groups));
    }

    /**
     * A new bearer token for {@code user} that expires {@code validFor} from now (never a remembered one), for tests of
     * what happens when a token runs out.
     */
    public String expiringToken(String user, java.time.Duration validFor, String... roles) {
        throw new UnsupportedOperationException(description() + " cannot issue a token with a lifetime of its own");
    }

    /**
     * A new, validly signed bearer token for {@code user} with these roles whose {@code aud} is {@code audience}, or
     * that has no {@code aud} at all when it is null: what another application of the same issuer would present.
     */
    public String tokenForAudience(String audience, String user, String... roles) {
        throw new UnsupportedOperationException(description() + " cannot issue a token for another audience");
    }

    public String token(String user, String... roles) {
        return token(user, Set.of(roles), Set.of());
    }

    /** The token a Batchyard service presents to another one's internal endpoints. */
    public String serviceToken(String service) {
        return token("service-" + service, "service");
    }

    /**
     * How a service proves its own identity to another one's internal endpoints (Quarkus property names): by default
     * the static {@link #serviceToken(String)} in {@code batchyard.service.token}.
     */
    public Map<String, String> serviceIdentityConfig(String service) {
        return Map.of("batchyard.service.token", serviceToken(service));
    }

    /** What every test call carries unless it sets its own Authorization header: an administrator. */
    public String adminToken() {
        return token(ADMIN_USER, "admin");
    }
}
