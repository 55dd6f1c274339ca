package io.batchyard.lineage.graph.api;

import io.batchyard.api.Roles;
import io.batchyard.lineage.graph.ColumnLineageService;
import io.batchyard.schemas.lineage.Reach;
import io.batchyard.schemas.lineage.ReachRequest;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Called by execution-service's backfills: which jobs a change of some columns reaches, to leave the others out of a
 * plan. Internal: it answers over every process's lineage, and the caller checks what its own caller may read.
 */
@RolesAllowed(Roles.SERVICE)
@Path("/internal/lineage")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "column lineage (internal)")
public class InternalLineageResource {

    private final ColumnLineageService lineage;

    public InternalLineageResource(ColumnLineageService lineage) {
        this.lineage = lineage;
    }

    @POST
    @Path("reach")
    @Operation(summary = "The jobs a change of each column reaches downstream, from the column lineage")
    public Uni<Reach> reach(@Valid @NotNull ReachRequest request) {
        return lineage.reach(request.columns());
    }
}
