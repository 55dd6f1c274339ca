package io.batchyard.clients.queue;

import io.batchyard.clients.ProblemAnswers;
import io.batchyard.clients.ServiceToken;
import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ReenqueueRequest;
import io.batchyard.schemas.backfill.Reenqueued;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * queue-service's internal backfill API, as its resources serve it (same service and settings as {@link QueueApi}).
 * Callers use {@link QueueImpact}; the interface is the wire alone.
 */
@RegisterRestClient(configKey = "queue-service")
@RegisterProvider(ServiceToken.class)
@RegisterProvider(ProblemAnswers.class)
@Path("/internal/backfills")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface QueueBackfillApi {

    /** The runs that consumed the roots' batches, with a fingerprint of the rows read; reads only. */
    @POST
    @Path("/impact")
    ImpactResult impact(ImpactRequest request);

    /** Offers a batch again to the steps of a job that consumed an affected batch; idempotent per backfill. */
    @POST
    @Path("/reenqueue")
    Reenqueued reenqueue(ReenqueueRequest request);
}
