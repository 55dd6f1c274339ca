package io.batchyard.registry.catalog.api;

import io.batchyard.api.Roles;
import io.batchyard.registry.catalog.CatalogService;
import io.batchyard.registry.catalog.MasterTable;
import io.batchyard.registry.catalog.ProcessType;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Read-only master data; seeded by migration. Each list is a whole small table, answered as one array of
 * {@code {id, name}} (process types add their parent type) ordered by id, never paged.
 */
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
        return catalog.entries(MasterTable.EXEC_STATES);
    }

    @GET
    @Path("batch-states")
    public Uni<List<CatalogService.Entry>> batchStates() {
        return catalog.entries(MasterTable.BATCH_STATES);
    }

    @GET
    @Path("deploy-statuses")
    public Uni<List<CatalogService.Entry>> deployStatuses() {
        return catalog.entries(MasterTable.DEPLOY_STATUSES);
    }

    @GET
    @Path("permission-types")
    public Uni<List<CatalogService.Entry>> permissionTypes() {
        return catalog.entries(MasterTable.PERMISSION_TYPES);
    }

    @GET
    @Path("lineage-node-types")
    public Uni<List<CatalogService.Entry>> lineageNodeTypes() {
        return catalog.entries(MasterTable.LINEAGE_NODE_TYPES);
    }

    @GET
    @Path("lineage-query-types")
    public Uni<List<CatalogService.Entry>> lineageQueryTypes() {
        return catalog.entries(MasterTable.LINEAGE_QUERY_TYPES);
    }
}
