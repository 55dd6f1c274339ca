package io.batchyard.dashboard.panels;

import io.quarkus.oidc.token.propagation.common.AccessToken;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** lineage-service's graphs as SVG (rendered there by Graphviz), with the viewer's token. */
@RegisterRestClient(configKey = "lineage")
@AccessToken
@Produces(LineageApi.SVG)
@Path("lineage")
public interface LineageApi {

    String SVG = "image/svg+xml";

    @GET
    @Path("processes/{pid}")
    Uni<String> processGraph(@PathParam("pid") long pid, @QueryParam("format") String format);

    @GET
    @Path("tables/{table}")
    Uni<String> tableGraph(@PathParam("table") String table, @QueryParam("format") String format);
}
