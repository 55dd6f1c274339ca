package io.batchyard.registry.process.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.registry.process.ProcessApi;
import io.batchyard.registry.process.ProcessFilter;
import io.batchyard.registry.process.ProcessMapping;
import io.batchyard.registry.process.ProcessService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Processes (jobs) and sub-processes (steps). */
@RolesAllowed(Roles.VIEWER)
@Path("/processes")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "processes")
public class ProcessResource {

    private final ProcessService service;

    public ProcessResource(ProcessService service) {
        this.service = service;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @POST
    @Operation(summary = "Register a parent process (no parentProcessId) or a step of one")
    public Uni<Response> create(@Valid @NotNull ProcessApi.CreateProcess request) {
        return service.create(request).map(created -> Response.created(URI.create("/processes/" + created.processId()))
                .entity(ProcessMapping.api(created)).build());
    }

    @GET
    @Operation(summary = "List processes, filtered and paged")
    public Uni<Page<ProcessApi.Process>> list(@Valid @BeanParam PageRequest page,
                                              @QueryParam("applicationId") @Positive Long applicationId,
                                              @QueryParam("parentProcessId") @Positive Long parentProcessId,
                                              @QueryParam("processTypeId") @Positive Integer processTypeId,
                                              @QueryParam("parentsOnly") Boolean parentsOnly,
                                              @QueryParam("name") @Size(max = 45) String name,
                                              @QueryParam("includeDeleted") @DefaultValue("false")
                                              boolean includeDeleted) {
        return service.list(new ProcessFilter(applicationId, parentProcessId, processTypeId, parentsOnly,
                        name, includeDeleted), page.limit(), page.offset())
                .map(listing -> Page.of(listing.items().stream().map(ProcessMapping::api).toList(),
                        listing.total(), page));
    }

    @GET
    @Path("{id}")
    public Uni<ProcessApi.Process> get(@PathParam("id") long id) {
        return service.get(id).map(ProcessMapping::api);
    }

    @GET
    @Path("{id}/tree")
    @Operation(summary = "The parent process of this process's tree, with all its steps")
    public Uni<ProcessApi.ProcessTree> tree(@PathParam("id") long id) {
        return service.tree(id).map(ProcessMapping::tree);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PATCH
    @Path("{id}")
    @Operation(summary = "Change some fields of a process; absent fields keep their value")
    public Uni<ProcessApi.Process> update(@PathParam("id") long id, @Valid @NotNull ProcessApi.PatchProcess patch) {
        return service.update(id, patch).map(ProcessMapping::api);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @DELETE
    @Path("{id}")
    @Operation(summary = "Soft-delete a process (a parent with its steps)")
    public Uni<Response> delete(@PathParam("id") long id) {
        return service.delete(id).map(done -> Response.noContent().build());
    }
}
