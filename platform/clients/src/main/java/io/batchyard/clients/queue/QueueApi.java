package io.batchyard.clients.queue;

import io.batchyard.clients.ProblemAnswers;
import io.batchyard.clients.ServiceToken;
import io.batchyard.schemas.claim.ClaimRequest;
import io.batchyard.schemas.claim.ClaimResult;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * queue-service's internal API, as its resources serve it. Callers use {@link QueueClaims}, which gives each call its
 * deadline, retries and circuit breaker; the interface is the wire alone.
 */
@RegisterRestClient(configKey = "queue-service")
@RegisterProvider(ServiceToken.class)
@RegisterProvider(ProblemAnswers.class)
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface QueueApi {

    /** Claims the input batches of a starting run; idempotent per {@code instanceExecId}. */
    @POST
    @Path("/claims")
    ClaimResult claim(ClaimRequest request);
}
