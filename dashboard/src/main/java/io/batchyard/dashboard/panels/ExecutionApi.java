package io.batchyard.dashboard.panels;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.oidc.token.propagation.common.AccessToken;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * execution-service's runner, data deadlines and backfills, read with the signed-in viewer's own token: the page shows
 * only what they may see.
 */
@RegisterRestClient(configKey = "execution")
@AccessToken
@Produces(MediaType.APPLICATION_JSON)
public interface ExecutionApi {

    @GET
    @Path("why/{pid}")
    Uni<JsonNode> why(@PathParam("pid") long pid);

    @GET
    @Path("runner/processes/{pid}")
    Uni<JsonNode> policy(@PathParam("pid") long pid);

    @GET
    @Path("deadlines")
    Uni<JsonNode> deadlines(@QueryParam("state") String state, @QueryParam("limit") int limit);

    @GET
    @Path("backfills")
    Uni<JsonNode> backfills(@QueryParam("state") String state, @QueryParam("limit") int limit);

    @GET
    @Path("processes/{pid}/trigger")
    Uni<JsonNode> trigger(@PathParam("pid") long pid);

    @GET
    @Path("processes/{pid}/trigger/runs")
    Uni<JsonNode> triggerRuns(@PathParam("pid") long pid, @QueryParam("limit") int limit);
}
