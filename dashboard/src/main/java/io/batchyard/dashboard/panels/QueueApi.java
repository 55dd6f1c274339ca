package io.batchyard.dashboard.panels;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.oidc.token.propagation.common.AccessToken;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** queue-service's compaction read API, with the viewer's token. */
@RegisterRestClient(configKey = "queue")
@AccessToken
@Produces(MediaType.APPLICATION_JSON)
@Path("compaction")
public interface QueueApi {

    @GET
    @Path("partitions")
    Uni<JsonNode> partitions(@QueryParam("limit") int limit);

    @GET
    @Path("jobs")
    Uni<JsonNode> jobs(@QueryParam("state") String state, @QueryParam("limit") int limit);
}
