package io.batchyard.lineage.openlineage.api;

import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.lineage.openlineage.OpenLineageService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** OpenLineage export: a run as one RunEvent with the column lineage of the queries it registered. */
@RolesAllowed(Roles.VIEWER)
@Path("/openlineage/runs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "openlineage")
public class OpenLineageResource {

    private final OpenLineageService openLineage;
    private final SecurityIdentity identity;

    public OpenLineageResource(OpenLineageService openLineage, SecurityIdentity identity) {
        this.openLineage = openLineage;
        this.identity = identity;
    }

    @GET
    @Path("{instanceExecId}")
    @Operation(summary = "OpenLineage RunEvent (with the columnLineage dataset facet) of a run")
    public Uni<Map<String, Object>> run(@PathParam("instanceExecId") @Min(1) long instanceExecId) {
        return openLineage.runEvent(Caller.of(identity), instanceExecId);
    }
}
