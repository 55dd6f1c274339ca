package io.batchyard.registry.process;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;

import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** Key/value parameters of a process by config group; a change is announced as ProcessChanged. */
@Path("/processes/{id}/properties")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "properties")
public class PropertyResource {

    public record PropertyRequest(
            @NotBlank @Size(max = 128) String configGroup,
            @NotNull @Size(max = 2048) String value,
            @Size(max = 1028) String description) {
    }

    public record Property(String configGroup, String key, String value, String description) {
        static Property of(PropertyRow p) {
            return new Property(p.configGroup(), p.key(), p.value(), p.description());
        }
    }

    @Inject
    Jdbi jdbi;

    @Inject
    ProcessDao processes;

    @Inject
    PropertyDao properties;

    @Inject
    ProcessService processService;

    @GET
    public List<Property> list(@PathParam("id") long id, @QueryParam("configGroup") @Size(max = 128) String configGroup) {
        return jdbi.withHandle(h -> {
            requireProcess(h, id);
            return properties.list(h, id, configGroup).stream().map(Property::of).toList();
        });
    }

    @GET
    @Path("{key}")
    public Property get(@PathParam("id") long id, @PathParam("key") String key) {
        return jdbi.withHandle(h -> properties.find(h, id, key)).map(Property::of)
                .orElseThrow(() -> NOT_FOUND.exception("process " + id + " has no property '" + key + "'"));
    }

    @PUT
    @Path("{key}")
    public Property put(@PathParam("id") long id,
                        @PathParam("key") @Size(min = 1, max = 128) @Pattern(regexp = "[^/\\s]+") String key,
                        @Valid @NotNull PropertyRequest request) {
        PropertyRow row = new PropertyRow(id, request.configGroup(), key, request.value(),
                request.description() == null ? "" : request.description());
        jdbi.useTransaction(tx -> {
            ProcessRow process = requireProcess(tx, id);
            if (process.deleted()) {
                throw DELETED.exception("process " + id + " is deleted");
            }
            properties.upsert(tx, row);
            processService.announceChange(tx, id);
        });
        return Property.of(row);
    }

    @DELETE
    @Path("{key}")
    public Response delete(@PathParam("id") long id, @PathParam("key") String key) {
        jdbi.useTransaction(tx -> {
            requireProcess(tx, id);
            if (!properties.delete(tx, id, key)) {
                throw NOT_FOUND.exception("process " + id + " has no property '" + key + "'");
            }
            processService.announceChange(tx, id);
        });
        return Response.noContent().build();
    }

    private ProcessRow requireProcess(org.jdbi.v3.core.Handle h, long id) {
        return processes.find(h, id).orElseThrow(() -> NOT_FOUND.exception("process " + id + " does not exist"));
    }
}
