package io.batchyard.readmodel.api;


import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.readmodel.ProcessDefinitionService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * What this service currently believes about a process. The read model lags the registry by the time the event
 * takes to arrive; this is how operators and tools see whether it has caught up.
 */
@RolesAllowed(Roles.VIEWER)
@Path("/process-definitions")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "read model")
public class ProcessDefinitionResource {

    private final ProcessDefinitionService definitions;
    private final SecurityIdentity identity;

    public ProcessDefinitionResource(ProcessDefinitionService definitions, SecurityIdentity identity) {
        this.definitions = definitions;
        this.identity = identity;
    }

    @GET
    @Path("{id}")
    @Operation(summary = "A process as last announced by the registry")
    public Uni<ProcessDefinition> get(@PathParam("id") long id) {
        return definitions.get(Caller.of(identity), id);
    }

    @GET
    @Path("{id}/tree")
    @Operation(summary = "A parent process with its live steps, as last announced by the registry")
    public Uni<ProcessDefinitionRepository.Tree> tree(@PathParam("id") long id) {
        return definitions.tree(Caller.of(identity), id);
    }
}
