package io.batchyard.execution.command;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Roles;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Who sent a command, decided by the rules of its REST twin: the record's {@code authorization} header carries a
 * bearer token, verified by the same OpenID Connect configuration as HTTP calls, and the lifecycle calls need the
 * {@code operator} role. No token or a refused one is code 12, a token without the role code 13, exactly as over REST.
 */
@ApplicationScoped
public class CommandAuthorization {

    private static final String BEARER = "Bearer ";

    private final TenantIdentityProvider tokens;

    public CommandAuthorization(TenantIdentityProvider tokens) {
        this.tokens = tokens;
    }

    public Uni<SecurityIdentity> check(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || authorization.length() == BEARER.length()) {
            return Uni.createFrom().failure(CommonErrors.UNAUTHENTICATED.exception(
                    "A command needs an 'authorization: Bearer <token>' record header"));
        }
        return tokens.authenticate(new AccessTokenCredential(authorization.substring(BEARER.length()).trim()))
                .onFailure(AuthenticationFailedException.class).transform(refused ->
                        CommonErrors.UNAUTHENTICATED.exception("The bearer token was not accepted"))
                .invoke(identity -> {
                    if (!Roles.reaches(identity.getRoles(), Roles.OPERATOR)) {
                        throw CommonErrors.FORBIDDEN.exception("Lifecycle commands need the operator role");
                    }
                });
    }
}
