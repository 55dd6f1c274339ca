package io.batchyard.queue.compaction.api;

import io.batchyard.api.Roles;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The catalog step, run on demand. */
@RolesAllowed(Roles.OPERATOR)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class CatalogResource {

    private final CatalogSync catalog;

    public CatalogResource(CatalogSync catalog) {
        this.catalog = catalog;
    }

    @POST
    @Path("catalog/sync")
    @Operation(summary = "Run the catalog step now: switch, close, publish, then merge jobs for partitions whose "
            + "objects waited for the mergeable window and that it reaches now")
    public Uni<CatalogSync.Summary> sync() {
        return catalog.run();
    }
}
