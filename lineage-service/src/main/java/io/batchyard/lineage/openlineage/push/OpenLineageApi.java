package io.batchyard.lineage.openlineage.push;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * An OpenLineage backend's lineage endpoint (Marquez's and the OpenLineage spec's). Its base URL is
 * {@code batchyard.lineage.openlineage.http.url} (application.properties hands it to this client's config key); any
 * answer from 400 on fails the call with a {@link jakarta.ws.rs.WebApplicationException} that carries the status.
 */
@RegisterRestClient(configKey = "openlineage")
@Path("/api/v1/lineage")
public interface OpenLineageApi {

    /** Posts one RunEvent as it was queued (JSON text); a null authorization sends no such header. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Void> post(@HeaderParam("Authorization") String authorization, String runEvent);
}
