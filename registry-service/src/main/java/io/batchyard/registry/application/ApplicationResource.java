package io.batchyard.registry.application;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import jakarta.inject.Inject;
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
import org.jdbi.v3.core.Jdbi;

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

    @Inject
    Jdbi jdbi;

    @Inject
    ApplicationDao applications;

    @POST
    public Response create(@Valid @NotNull ApplicationRequest request) {
        ApplicationRow created = jdbi.inTransaction(tx -> {
            if (applications.nameTaken(tx, request.name(), null)) {
                throw DUPLICATE.exception("an application named '" + request.name() + "' already exists");
            }
            return applications.insert(tx, request.name(), request.description(), request.owner());
        });
        return Response.created(URI.create("/applications/" + created.id())).entity(created).build();
    }

    @GET
    public Page<ApplicationRow> list(@Valid @BeanParam PageRequest page, @QueryParam("name") @Size(max = 45) String name) {
        return jdbi.withHandle(h -> Page.of(applications.list(h, name, page.limit(), page.offset()),
                applications.count(h, name), page));
    }

    @GET
    @Path("{id}")
    public ApplicationRow get(@PathParam("id") long id) {
        return jdbi.withHandle(h -> applications.find(h, id))
                .orElseThrow(() -> NOT_FOUND.exception("application " + id + " does not exist"));
    }

    @PUT
    @Path("{id}")
    public ApplicationRow update(@PathParam("id") long id, @Valid @NotNull ApplicationRequest request) {
        return jdbi.inTransaction(tx -> {
            if (applications.nameTaken(tx, request.name(), id)) {
                throw DUPLICATE.exception("an application named '" + request.name() + "' already exists");
            }
            return applications.update(tx, id, request.name(), request.description(), request.owner())
                    .orElseThrow(() -> NOT_FOUND.exception("application " + id + " does not exist"));
        });
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        jdbi.useTransaction(tx -> {
            long processes = applications.processCount(tx, id);
            if (processes > 0) {
                throw STILL_REFERENCED.exception("application " + id + " still has " + processes + " process(es)");
            }
            if (!applications.delete(tx, id)) {
                throw NOT_FOUND.exception("application " + id + " does not exist");
            }
        });
        return Response.noContent().build();
    }
}
