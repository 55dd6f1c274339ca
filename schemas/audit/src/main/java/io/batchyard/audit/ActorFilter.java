package io.batchyard.audit;

import io.batchyard.eventing.Actor;
import io.batchyard.eventing.Trace;
import io.batchyard.schemas.RecordHeaders;
import jakarta.ws.rs.container.ContainerRequestContext;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Makes the caller of a JAX-RS operation the actor of whatever it changes, so that the events it writes carry the
 * caller in their header ({@link Actor}), and continues the caller's trace when the call carries a W3C
 * {@code traceparent} header ({@link Trace}): the events it writes are published in that trace.
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

    @ServerRequestFilter
    public void trace(ContainerRequestContext request) {
        Trace.continueFrom(request.getHeaderString(RecordHeaders.TRACEPARENT));
    }
}
