package io.batchyard.api.access;

import io.batchyard.api.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Who is asking, as far as application permissions care: a name, the groups the token names, and admin or not. */
public record Caller(String name, Set<String> groups, boolean admin) {

    /** Batchyard acting on its own (the stand-alone runner carrying out a launch that was itself checked). */
    public static Caller system(String name) {
        return new Caller(name, Set.of(), true);
    }

    public static Caller of(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return new Caller("anonymous", Set.of(), false);
        }
        Set<String> groups = identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getGroups() != null
                ? Set.copyOf(jwt.getGroups()) : Set.of();
        return new Caller(identity.getPrincipal().getName(), groups, identity.hasRole(Roles.ADMIN));
    }
}
