package io.batchyard.registry.hive.api;

import io.batchyard.api.Roles;
import io.batchyard.registry.hive.EtlDriver;
import io.batchyard.registry.hive.EtlDriverService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Links a data-load parent process to its raw table, raw view and base table (BDRE ETL_DRIVER). */
@RolesAllowed(Roles.VIEWER)
@Path("/processes/{id}/etl-driver")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "hive tables")
public class EtlDriverResource {

    private final EtlDriverService drivers;

    public EtlDriverResource(EtlDriverService drivers) {
        this.drivers = drivers;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    public Uni<EtlDriver> put(@PathParam("id") long processId, @Valid @NotNull EtlDriver d) {
        return drivers.put(processId, d);
    }

    @GET
    public Uni<EtlDriver> get(@PathParam("id") long processId) {
        return drivers.get(processId);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @DELETE
    public Uni<Response> delete(@PathParam("id") long processId) {
        return drivers.delete(processId).map(done -> Response.noContent().build());
    }
}
