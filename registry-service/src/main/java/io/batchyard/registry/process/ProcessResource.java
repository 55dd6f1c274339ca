package io.batchyard.registry.process;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import jakarta.inject.Inject;
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
@Path("/processes")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "processes")
public class ProcessResource {

    @Inject
    ProcessService service;

    @POST
    @Operation(summary = "Register a parent process (no parentProcessId) or a step of one")
    public Response create(@Valid @NotNull ProcessApi.CreateProcess request) {
        ProcessRow created = service.create(request);
        return Response.created(URI.create("/processes/" + created.processId())).entity(ProcessApi.Process.of(created))
                .build();
    }

    @GET
    @Operation(summary = "List processes, filtered and paged")
    public Page<ProcessApi.Process> list(@Valid @BeanParam PageRequest page,
                                         @QueryParam("applicationId") @Positive Long applicationId,
                                         @QueryParam("parentProcessId") @Positive Long parentProcessId,
                                         @QueryParam("processTypeId") @Positive Integer processTypeId,
                                         @QueryParam("parentsOnly") Boolean parentsOnly,
                                         @QueryParam("name") @Size(max = 45) String name,
                                         @QueryParam("includeDeleted") @DefaultValue("false") boolean includeDeleted) {
        ProcessService.Listing listing = service.list(new ProcessDao.Filter(applicationId, parentProcessId,
                processTypeId, parentsOnly, name, includeDeleted), page.limit(), page.offset());
        return Page.of(listing.items().stream().map(ProcessApi.Process::of).toList(), listing.total(), page);
    }

    @GET
    @Path("{id}")
    public ProcessApi.Process get(@PathParam("id") long id) {
        return ProcessApi.Process.of(service.get(id));
    }

    @GET
    @Path("{id}/tree")
    @Operation(summary = "The parent process of this process's tree, with all its steps")
    public ProcessApi.ProcessTree tree(@PathParam("id") long id) {
        return ProcessApi.ProcessTree.of(service.tree(id));
    }

    @PATCH
    @Path("{id}")
    @Operation(summary = "Change some fields of a process; absent fields keep their value")
    public ProcessApi.Process update(@PathParam("id") long id, @Valid @NotNull ProcessApi.PatchProcess patch) {
        return ProcessApi.Process.of(service.update(id, patch));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Soft-delete a process (a parent with its steps)")
    public Response delete(@PathParam("id") long id) {
        service.delete(id);
        return Response.noContent().build();
    }
}
