package io.batchyard.registry.application.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.registry.application.ApplicationRow;
import io.batchyard.registry.application.ApplicationService;
import io.smallrye.mutiny.Uni;
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
@Path("/applications")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "applications")
public class ApplicationResource {

    public record ApplicationRequest(
            @NotBlank @Size(max = 45) String name,
            @NotBlank @Size(max = 256) String description,
            @NotBlank @Size(max = 45) String owner) {
    }

    private final ApplicationService applications;

    public ApplicationResource(ApplicationService applications) {
        this.applications = applications;
    }

    @POST
    public Uni<Response> create(@Valid @NotNull ApplicationRequest request) {
        return applications.create(request.name(), request.description(), request.owner())
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

    @PUT
    @Path("{id}")
    public Uni<ApplicationRow> update(@PathParam("id") long id, @Valid @NotNull ApplicationRequest request) {
        return applications.update(id, request.name(), request.description(), request.owner());
    }

    @DELETE
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") long id) {
        return applications.delete(id).map(done -> Response.noContent().build());
    }
}
