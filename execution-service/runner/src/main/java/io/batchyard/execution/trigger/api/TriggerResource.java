package io.batchyard.execution.trigger.api;

import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.trigger.TriggerPolicy;
import io.batchyard.execution.trigger.TriggerService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Whether a parent is started by its data: the same roles as its run policy. */
@RolesAllowed(Roles.VIEWER)
@Path("/processes/{pid}/trigger")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "trigger")
public class TriggerResource {

    /** PUT body: {@code on-batch}, {@code all-enqueuers} or {@code none}. */
    public record TriggerRequest(String policy) {
    }

    private final TriggerService triggers;
    private final SecurityIdentity identity;

    public TriggerResource(TriggerService triggers, SecurityIdentity identity) {
        this.triggers = triggers;
        this.identity = identity;
    }

    @RolesAllowed(Roles.OPERATOR)
    @PUT
    @Operation(summary = "Set the trigger policy of a parent: on-batch (start when a step gets a batch), "
            + "all-enqueuers (when every enqueuing process has delivered since the last triggered run) or none")
    public Uni<TriggerService.Policy> put(@PathParam("pid") long pid, TriggerRequest body) {
        if (body == null) {
            throw ExecutionError.INVALID_TRIGGER_POLICY.exception(
                    "a JSON body {\"policy\": \"on-batch\" | \"all-enqueuers\" | \"none\"} is required");
        }
        return triggers.save(Caller.of(identity), pid, TriggerPolicy.of(body.policy()));
    }

    @GET
    @Operation(summary = "The trigger policy of a parent (none when it was never set)")
    public Uni<TriggerService.Policy> get(@PathParam("pid") long pid) {
        return triggers.get(Caller.of(identity), pid);
    }
}
