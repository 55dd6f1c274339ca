package io.batchyard.clients.lineage;

import io.batchyard.clients.ProblemAnswers;
import io.batchyard.clients.ServiceToken;
import io.batchyard.schemas.lineage.Reach;
import io.batchyard.schemas.lineage.ReachRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * lineage-service's internal API, as its resources serve it. Callers use {@link LineageReach}, which gives the call
 * its deadline, retries and breaker; the interface is the wire alone.
 */
@RegisterRestClient(configKey = "lineage-service")
@RegisterProvider(ServiceToken.class)
@RegisterProvider(ProblemAnswers.class)
@Path("/internal/lineage")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface LineageApi {

    /** The jobs a change of each column reaches, from the column lineage; reads only. */
    @POST
    @Path("/reach")
    Reach reach(ReachRequest request);
}
