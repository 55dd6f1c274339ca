package io.batchyard.audit;

import io.batchyard.eventing.Actor;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Makes the caller of a JAX-RS operation the actor of whatever it changes, so that the events it writes carry the
 * caller in their header ({@link Actor}). (The caller's trace needs nothing here: Quarkus continues an incoming
 * {@code traceparent} header in the call's server span, and the events the call writes are published in it.)
 */
@ApplicationScoped
public class ActorFilter {

    private final CurrentIdentityAssociation identity;

    public ActorFilter(CurrentIdentityAssociation identity) {
        this.identity = identity;
    }

    @ServerRequestFilter
    public Uni<Void> actor() {
        return identity.getDeferredIdentity()
                .invoke(who -> Actor.set(who.isAnonymous() ? null : who.getPrincipal().getName()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
