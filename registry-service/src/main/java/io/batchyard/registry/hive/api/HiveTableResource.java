package io.batchyard.registry.hive.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.registry.hive.HiveTable;
import io.batchyard.registry.hive.HiveTableRequest;
import io.batchyard.registry.hive.HiveTableService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Hive table and view DDLs that data-load processes create (BDRE HIVE_TABLES). */
@RolesAllowed(Roles.VIEWER)
@Path("/hive-tables")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "hive tables")
public class HiveTableResource {

    private final HiveTableService tables;

    public HiveTableResource(HiveTableService tables) {
        this.tables = tables;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @POST
    public Uni<Response> create(@Valid @NotNull HiveTableRequest r) {
        return tables.create(r)
                .map(created -> Response.created(URI.create("/hive-tables/" + created.id())).entity(created).build());
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("{id}")
    public Uni<HiveTable> update(@PathParam("id") long id, @Valid @NotNull HiveTableRequest r) {
        return tables.update(id, r);
    }

    @GET
    public Uni<Page<HiveTable>> list(@Valid @BeanParam PageRequest page,
                                     @QueryParam("dbName") @Size(max = 45) String dbName) {
        return tables.list(dbName, page.limit(), page.offset())
                .map(listing -> Page.of(listing.items(), listing.total(), page));
    }

    @GET
    @Path("{id}")
    public Uni<HiveTable> get(@PathParam("id") long id) {
        return tables.get(id);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @DELETE
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") long id) {
        return tables.delete(id).map(done -> Response.noContent().build());
    }
}
