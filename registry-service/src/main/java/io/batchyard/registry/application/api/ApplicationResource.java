package io.batchyard.registry.application.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.registry.application.ApplicationRow;
import io.batchyard.registry.application.ApplicationService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
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

/** Applications (BDRE business domains): the grouping every process belongs to. */
@RolesAllowed(Roles.VIEWER)
@Path("/applications")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "applications")
public class ApplicationResource {

    public record ApplicationRequest(
            @NotBlank @Size(max = 45) String name,
            @NotBlank @Size(max = 256) String description,
            @NotBlank @Size(max = 45) String owner,
            @Size(max = 255) String ownerGroup) {
    }

    /** Permission types: 0 none, 4 read, 6 read + write, 7 read + write + execute. */
    public record PermissionsRequest(
            @Size(max = 255) String ownerUser,
            @Size(max = 255) String ownerGroup,
            @NotNull Integer owner,
            @NotNull Integer group,
            @NotNull Integer others) {
    }

    private final ApplicationService applications;

    public ApplicationResource(ApplicationService applications) {
        this.applications = applications;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @POST
    public Uni<Response> create(@Valid @NotNull ApplicationRequest request) {
        return applications.create(request.name(), request.description(), request.owner(), request.ownerGroup())
                .map(created -> Response.created(URI.create("/applications/" + created.id())).entity(created).build());
    }

    @GET
    public Uni<Page<ApplicationRow>> list(@Valid @BeanParam PageRequest page,
                                          @QueryParam("name") @Size(max = 45) String name) {
        return applications.list(name, page.limit(), page.offset())
                .map(listing -> Page.of(listing.items(), listing.total(), page));
    }

    @GET
    @Path("{id}")
    public Uni<ApplicationRow> get(@PathParam("id") long id) {
        return applications.get(id);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("{id}")
    public Uni<ApplicationRow> update(@PathParam("id") long id, @Valid @NotNull ApplicationRequest request) {
        return applications.update(id, request.name(), request.description(), request.owner());
    }

    /** The owner and administrators only (403, code 14, for anyone else). */
    @GET
    @Path("{id}/permissions")
    public Uni<ApplicationRow.Permissions> permissions(@PathParam("id") long id) {
        return applications.permissions(id);
    }

    /** Replaces the owner, the owner group and the three permission types; the owner and administrators only. */
    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("{id}/permissions")
    public Uni<ApplicationRow.Permissions> setPermissions(@PathParam("id") long id,
                                                          @Valid @NotNull PermissionsRequest request) {
        return applications.setPermissions(id, new ApplicationRow.Permissions(request.ownerUser(),
                request.ownerGroup(), request.owner(), request.group(), request.others()));
    }

    @RolesAllowed(Roles.ADMIN)
    @DELETE
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") long id) {
        return applications.delete(id).map(done -> Response.noContent().build());
    }
}
