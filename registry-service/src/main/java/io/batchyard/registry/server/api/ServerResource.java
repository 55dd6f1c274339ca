package io.batchyard.registry.server.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.registry.server.ServerRequest;
import io.batchyard.registry.server.ServerRow;
import io.batchyard.registry.server.SecretRotationService;
import io.batchyard.registry.server.ServerService;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Servers that hold batch files. Credentials are write-only: responses say only whether a password or key is set,
 * and the key's fingerprint.
 */
@RolesAllowed(Roles.ADMIN)
@Path("/servers")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "servers")
public class ServerResource {

    private final ServerService servers;
    private final SecretRotationService rotation;

    public ServerResource(ServerService servers, SecretRotationService rotation) {
        this.servers = servers;
        this.rotation = rotation;
    }

    @POST
    public Uni<Response> create(@Valid @NotNull ServerRequest request) {
        return servers.create(request)
                .map(created -> Response.created(URI.create("/servers/" + created.id())).entity(created).build());
    }

    /**
     * Seals every stored credential (server secrets, secret properties) that is under another key again under the
     * current key; answers how many rows it rewrote. Run it after rotating the key, before dropping the previous one.
     */
    @POST
    @Path("re-encrypt")
    @Consumes(MediaType.WILDCARD) // no body: a bare POST must not be a 415
    @Operation(summary = "Re-encrypt every stored credential under the current secrets key (idempotent)")
    public Uni<SecretRotationService.ReEncryption> reEncrypt() {
        return rotation.reEncrypt();
    }

    @PUT
    @Path("{id}")
    public Uni<ServerRow> update(@PathParam("id") long id, @Valid @NotNull ServerRequest request) {
        return servers.update(id, request);
    }

    @GET
    public Uni<Page<ServerRow>> list(@Valid @BeanParam PageRequest page,
                                     @QueryParam("serverType") @Size(max = 45) String type) {
        return servers.list(type, page.limit(), page.offset())
                .map(listing -> Page.of(listing.items(), listing.total(), page));
    }

    @GET
    @Path("{id}")
    public Uni<ServerRow> get(@PathParam("id") long id) {
        return servers.get(id);
    }

    @DELETE
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") long id) {
        return servers.delete(id).map(done -> Response.noContent().build());
    }
}
