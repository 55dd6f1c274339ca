package io.batchyard.api.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipal;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

/** How long a verified token is remembered, and what is never remembered. */
class VerifiedTokensTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    @Test
    void rememberedUntilTheTokenExpiresOrTheTtlEndsWhicheverIsFirst() {
        VerifiedTokens tokens = new VerifiedTokens(Duration.ofMinutes(1), 10, clock, new SimpleMeterRegistry());
        tokens.verified("long", identity("ana", now.get().plusSeconds(3600)));
        tokens.verified("short", identity("bo", now.get().plusSeconds(20)));
        assertThat(tokens.identityFor("long", null).getPrincipal().getName()).isEqualTo("ana");
        assertThat(tokens.identityFor("short", null).getPrincipal().getName()).isEqualTo("bo");
        now.set(now.get().plusSeconds(20));
        assertThat(tokens.identityFor("short", null)).as("expired with its token").isNull();
        assertThat(tokens.identityFor("long", null)).isNotNull();
        now.set(now.get().plusSeconds(40));
        assertThat(tokens.identityFor("long", null)).as("the TTL bounds a long-lived token").isNull();
    }

    @Test
    void anonymousTokensWithoutExpiryAndAZeroTtlAreNeverRemembered() {
        VerifiedTokens tokens = new VerifiedTokens(Duration.ofMinutes(1), 10, clock, new SimpleMeterRegistry());
        tokens.verified("anon", QuarkusSecurityIdentity.builder().setAnonymous(true).build());
        tokens.verified("no-exp", identity("ana", null));
        tokens.verified("expired", identity("ana", now.get().minusSeconds(1)));
        assertThat(tokens.size()).isZero();
        VerifiedTokens off = new VerifiedTokens(Duration.ZERO, 10, clock, new SimpleMeterRegistry());
        off.verified("t", identity("ana", now.get().plusSeconds(60)));
        assertThat(off.identityFor("t", null)).isNull();
    }

    @Test
    void fullMeansExpiredOnesGoAndNewOnesWaitForRoom() {
        VerifiedTokens tokens = new VerifiedTokens(Duration.ofMinutes(1), 2, clock, new SimpleMeterRegistry());
        tokens.verified("a", identity("a", now.get().plusSeconds(10)));
        tokens.verified("b", identity("b", now.get().plusSeconds(60)));
        tokens.verified("c", identity("c", now.get().plusSeconds(60)));
        assertThat(tokens.identityFor("c", null)).as("no room").isNull();
        now.set(now.get().plusSeconds(10));
        tokens.verified("c", identity("c", now.get().plusSeconds(60)));
        assertThat(tokens.size()).isEqualTo(2);
        assertThat(tokens.identityFor("c", null)).isNotNull();
        assertThat(tokens.identityFor("a", null)).isNull();
    }

    @Test
    void aRememberedIdentityCarriesItsRolesAndIsMarked() {
        VerifiedTokens tokens = new VerifiedTokens(Duration.ofMinutes(1), 10, clock, new SimpleMeterRegistry());
        SecurityIdentity verified = QuarkusSecurityIdentity.builder(identity("ana", now.get().plusSeconds(60)))
                .addRole("viewer").addAttribute("io.vertx.ext.web.RoutingContext", "first request").build();
        tokens.verified("t", verified);
        SecurityIdentity again = tokens.identityFor("t", null);
        assertThat(again.getRoles()).containsExactly("viewer");
        assertThat((Object) again.getAttribute("io.vertx.ext.web.RoutingContext")).as("no earlier request").isNull();
        assertThat((Object) again.getAttribute(VerifiedTokens.FROM_CACHE)).isEqualTo(Boolean.TRUE);
    }

    private static SecurityIdentity identity(String name, Instant expires) {
        JwtClaims claims = new JwtClaims();
        claims.setClaim("preferred_username", name);
        claims.setSubject(name);
        if (expires != null) {
            claims.setExpirationTime(NumericDate.fromSeconds(expires.getEpochSecond()));
        }
        return QuarkusSecurityIdentity.builder().setPrincipal(new DefaultJWTCallerPrincipal(claims)).build();
    }

    @Test
    void theCacheIsAskedBeforeAnyProviderOfDefaultPriorityLikeTheOidcVerifier() {
        // the OpenID Connect verifier does not set a priority of its own; with a tie the container's order decides
        IdentityProvider<TokenAuthenticationRequest> verifierLike = new IdentityProvider<>() {
            @Override
            public Class<TokenAuthenticationRequest> getRequestType() {
                return TokenAuthenticationRequest.class;
            }

            @Override
            public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request,
                                                      AuthenticationRequestContext context) {
                return Uni.createFrom().nullItem();
            }
        };
        assertThat(new CachedTokenIdentityProvider(null).priority()).isGreaterThan(verifierLike.priority());
    }
}
