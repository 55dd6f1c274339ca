package io.batchyard.registry.catalog.api;

import io.batchyard.api.Roles;
import io.batchyard.registry.catalog.CatalogService;
import io.batchyard.registry.catalog.ProcessType;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Read-only master data; seeded by migration. */
@RolesAllowed(Roles.VIEWER)
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "master data")
public class CatalogResource {

    private final CatalogService catalog;

    public CatalogResource(CatalogService catalog) {
        this.catalog = catalog;
    }

    @GET
    @Path("process-types")
    public Uni<List<ProcessType>> processTypes() {
        return catalog.processTypeList();
    }

    @GET
    @Path("workflow-types")
    public Uni<List<CatalogService.Entry>> workflowTypes() {
        return catalog.workflowTypes().map(types -> List.copyOf(types.values()));
    }

    @GET
    @Path("exec-states")
    public Uni<List<CatalogService.Entry>> execStates() {
        return catalog.execStates();
    }

    @GET
    @Path("batch-states")
    public Uni<List<CatalogService.Entry>> batchStates() {
        return catalog.batchStates();
    }
}
