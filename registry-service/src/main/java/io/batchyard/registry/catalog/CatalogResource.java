package io.batchyard.registry.catalog;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Read-only master data; seeded by migration. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "master data")
public class CatalogResource {

    @Inject
    Catalog catalog;

    @GET
    @Path("process-types")
    public List<ProcessType> processTypes() {
        return catalog.processTypeList();
    }

    @GET
    @Path("workflow-types")
    public List<Catalog.Entry> workflowTypes() {
        return List.copyOf(catalog.workflowTypes().values());
    }

    @GET
    @Path("exec-states")
    public List<Catalog.Entry> execStates() {
        return catalog.execStates();
    }

    @GET
    @Path("batch-states")
    public List<Catalog.Entry> batchStates() {
        return catalog.batchStates();
    }
}
