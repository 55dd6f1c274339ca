package io.batchyard.api.access;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.Startup;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Bearer tokens whose signature and claims were verified, with the identity they gave, until the token expires or
 * {@code batchyard.auth.token-cache.ttl} has passed, whichever is first.
 *
 * <p>Why: every call carries the same token again (a job's steps, the runner, another service), and verifying its RSA
 * signature is the largest single cost of a small call. A bearer token cannot be revoked before it expires anyway, so
 * remembering that it verified changes nothing a caller can observe; the TTL bounds how long a token signed by a key
 * that was rotated out keeps working here.
 *
 * <p>Bounded: at {@code batchyard.auth.token-cache.max-size} entries the expired ones are dropped, and while it is
 * still full a newly verified token is simply not remembered. Keyed by the whole token, so a token differing in one
 * character is verified afresh. Entries hold no request: the routing context of the request that verified the token
 * is removed, and each later request's own is put in the identity it gets.
 *
 * <p>Counted in {@code batchyard.auth.token.cache} (outcome {@code hit} or {@code miss}). Built unless
 * {@code batchyard.auth.token-cache.enabled=false} (the dashboard, whose sign-in tokens are not bearer tokens).
 */
@ApplicationScoped
@Startup // its counters exist, at zero, before the first call
@IfBuildProperty(name = "batchyard.auth.token-cache.enabled", stringValue = "true", enableIfMissing = true)
public class VerifiedTokens {

    /** Requests whose token was (hit) or was not (miss) found verified. */
    public static final String METER = "batchyard.auth.token.cache";
    /** Marks an identity served from here, so that it is not stored again. */
    static final String FROM_CACHE = "batchyard.token-cache.hit";
    private static final String ROUTING_CONTEXT = RoutingContext.class.getName();

    private record Entry(SecurityIdentity identity, Instant until) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final int maxSize;
    private final Clock clock;
    private final Counter hits;
    private final Counter misses;

    @Inject
    public VerifiedTokens(MeterRegistry meters,
                          @ConfigProperty(name = "batchyard.auth.token-cache.ttl", defaultValue = "PT1M") Duration ttl,
                          @ConfigProperty(name = "batchyard.auth.token-cache.max-size", defaultValue = "10000") int maxSize) {
        this(ttl, maxSize, Clock.systemUTC(), meters);
    }

    VerifiedTokens(Duration ttl, int maxSize, Clock clock, MeterRegistry meters) {
        this.ttl = ttl;
        this.maxSize = maxSize;
        this.clock = clock;
        this.hits = Counter.builder(METER).tag("outcome", "hit")
                .description("Requests whose bearer token had been verified before").register(meters);
        this.misses = Counter.builder(METER).tag("outcome", "miss")
                .description("Requests whose bearer token had to be verified").register(meters);
    }

    /**
     * The identity {@code token} gave when it verified, now carrying {@code request}'s routing context; null when it
     * is not known (never verified, forgotten, or expired: the verifier then refuses it as it would have).
     */
    SecurityIdentity identityFor(String token, RoutingContext request) {
        Entry entry = entries.get(token);
        if (entry != null && !clock.instant().isBefore(entry.until())) {
            entries.remove(token, entry);
            entry = null;
        }
        if (entry == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        return QuarkusSecurityIdentity.builder(entry.identity())
                .addAttribute(ROUTING_CONTEXT, request)
                .addAttribute(FROM_CACHE, Boolean.TRUE)
                .build();
    }

    /**
     * Remembers that {@code token} verified into {@code identity}. Only a token with an expiry is kept, and never
     * past it.
     */
    void verified(String token, SecurityIdentity identity) {
        if (ttl.isZero() || ttl.isNegative() || identity.isAnonymous()
                || !(identity.getPrincipal() instanceof JsonWebToken jwt) || jwt.getExpirationTime() <= 0) {
            return;
        }
        Instant now = clock.instant();
        Instant expires = Instant.ofEpochSecond(jwt.getExpirationTime());
        Instant until = expires.isBefore(now.plus(ttl)) ? expires : now.plus(ttl);
        if (!now.isBefore(until)) {
            return;
        }
        if (entries.size() >= maxSize) {
            entries.values().removeIf(e -> !now.isBefore(e.until()));
            if (entries.size() >= maxSize) {
                return;
            }
        }
        // The request that verified the token is not kept alive by the cache.
        entries.put(token, new Entry(QuarkusSecurityIdentity.builder(identity).addAttribute(ROUTING_CONTEXT, null)
                .build(), until));
    }

    /** Whether a call with {@code token} would be spared its verification now. */
    public boolean remembers(String token) {
        Entry entry = entries.get(token);
        return entry != null && clock.instant().isBefore(entry.until());
    }

    /** How many tokens are remembered now (expired ones not yet dropped included). */
    int size() {
        return entries.size();
    }
}
