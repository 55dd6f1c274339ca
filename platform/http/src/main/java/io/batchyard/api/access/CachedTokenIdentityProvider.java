package io.batchyard.api.access;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Asked before the OpenID Connect verifier: a bearer token that verified before gets its identity again
 * ({@link VerifiedTokens}); any other answers nothing, and the verifier does its full check.
 */
@ApplicationScoped
@IfBuildProperty(name = "batchyard.auth.token-cache.enabled", stringValue = "true", enableIfMissing = true)
public class CachedTokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final VerifiedTokens tokens;

    public CachedTokenIdentityProvider(VerifiedTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    /**
     * Ahead of the verifier: one above the interface's default priority, which the OpenID Connect verifier keeps
     * (it is {@code SYSTEM_FIRST + 1}, not {@code SYSTEM_FIRST}). Providers of equal priority are asked in the order
     * the container happens to list them, and that order differed between services: with a tie, this cache was never
     * asked in execution-service and queue-service.
     */
    @Override
    public int priority() {
        return IdentityProvider.super.priority() + 1;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        if (!(request.getToken() instanceof AccessTokenCredential bearer) || bearer.getToken() == null) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(tokens.identityFor(bearer.getToken(),
                HttpSecurityUtils.getRoutingContextAttribute(request)));
    }
}
