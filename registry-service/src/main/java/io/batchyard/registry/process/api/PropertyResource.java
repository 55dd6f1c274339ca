package io.batchyard.registry.process.api;

import io.batchyard.api.Roles;
import io.batchyard.registry.process.PropertyKey;
import io.batchyard.registry.process.PropertyRow;
import io.batchyard.registry.process.PropertyService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
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

/** Key/value parameters of a process by config group; a change is announced as ProcessChanged. Secrets are write-only. */
@RolesAllowed(Roles.VIEWER)
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

    /**
     * A property as answered. A secret (config group credential or security) is write-only, like a server's
     * credentials: {@code value} is null and {@code secret} true, also in the answer to the PUT that set it.
     */
    public record Property(String configGroup, String key, String value, boolean secret, String description) {
        static Property of(PropertyRow p) {
            return new Property(p.configGroup(), p.key(), p.sensitive() ? null : p.value(), p.sensitive(),
                    p.description());
        }
    }

    private final PropertyService properties;

    public PropertyResource(PropertyService properties) {
        this.properties = properties;
    }

    @GET
    public Uni<List<Property>> list(@PathParam("id") long id,
                                    @QueryParam("configGroup") @Size(max = 128) String configGroup) {
        return properties.list(id, configGroup).map(rows -> rows.stream().map(Property::of).toList());
    }

    @GET
    @Path("{key}")
    public Uni<Property> get(@PathParam("id") long id, @PathParam("key") @PropertyKey String key) {
        return properties.get(id, key).map(Property::of);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("{key}")
    public Uni<Property> put(@PathParam("id") long id,
                             @PathParam("key") @PropertyKey String key,
                             @Valid @NotNull PropertyRequest request) {
        return properties.put(new PropertyRow(id, request.configGroup(), key, request.value(),
                        request.description() == null ? "" : request.description()))
                .map(Property::of);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @DELETE
    @Path("{key}")
    public Uni<Response> delete(@PathParam("id") long id, @PathParam("key") @PropertyKey String key) {
        return properties.delete(id, key).map(done -> Response.noContent().build());
    }
}
