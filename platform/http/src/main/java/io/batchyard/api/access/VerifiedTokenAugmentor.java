package io.batchyard.api.access;

import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Remembers each bearer token the verifier accepted ({@link VerifiedTokens}). It runs before every other augmentor,
 * so what is remembered is the verifier's own identity, and the others (the role mapping) still run on every request,
 * remembered or not.
 */
@ApplicationScoped
@IfBuildProperty(name = "batchyard.auth.token-cache.enabled", stringValue = "true", enableIfMissing = true)
public class VerifiedTokenAugmentor implements SecurityIdentityAugmentor {

    private final VerifiedTokens tokens;

    public VerifiedTokenAugmentor(VerifiedTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public int priority() {
        return Integer.MAX_VALUE;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        return augment(identity, context, Map.of());
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context,
                                         Map<String, Object> attributes) {
        AccessTokenCredential bearer = identity.isAnonymous() ? null : identity.getCredential(AccessTokenCredential.class);
        if (bearer != null && bearer.getToken() != null && identity.getAttribute(VerifiedTokens.FROM_CACHE) == null) {
            tokens.verified(bearer.getToken(), identity);
        }
        return Uni.createFrom().item(identity);
    }
}
