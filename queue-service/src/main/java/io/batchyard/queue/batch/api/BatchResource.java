package io.batchyard.queue.batch.api;

import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.batch.Batch;
import io.batchyard.queue.batch.BatchApi;
import io.batchyard.queue.batch.BatchService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Batches: register one with its files and offer it to the consuming steps (BDRE BatchEnqueuer). */
@RolesAllowed(Roles.VIEWER)
@Path("/batches")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "batches")
public class BatchResource {

    private final BatchService batches;
    private final SecurityIdentity identity;

    public BatchResource(BatchService batches, SecurityIdentity identity) {
        this.batches = batches;
        this.identity = identity;
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Operation(summary = "Register a batch with its files and enqueue it for every step the enqueuing process feeds")
    public Uni<Response> enqueueBatch(@Valid @NotNull BatchApi.EnqueueBatch request) {
        return batches.enqueueBatch(Caller.of(identity), request).map(result -> Response
                .created(URI.create("/batches/" + result.batchId())).entity(result).build());
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("{batchId}/enqueue")
    @Operation(summary = "Put an existing batch on one step's queue")
    public Uni<Response> enqueue(@PathParam("batchId") long batchId, @Valid @NotNull BatchApi.DirectEnqueue request) {
        return batches.enqueue(Caller.of(identity), batchId, request).map(row -> Response
                .created(URI.create("/queue?processId=" + row.processId())).entity(row).build());
    }

    @GET
    @Path("{batchId}")
    public Uni<Batch> get(@PathParam("batchId") long batchId) {
        return batches.get(Caller.of(identity), batchId);
    }
}
