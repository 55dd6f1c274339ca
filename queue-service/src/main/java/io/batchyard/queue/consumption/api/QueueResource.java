package io.batchyard.queue.consumption.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.consumption.BatchLineage;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.queue.consumption.QueueService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The consumption queue, its archive, and lineage by batch. */
@RolesAllowed(Roles.VIEWER)
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "queue")
public class QueueResource {

    private final QueueService queue;
    private final SecurityIdentity identity;

    public QueueResource(QueueService queue, SecurityIdentity identity) {
        this.queue = queue;
        this.identity = identity;
    }

    @GET
    @Path("queue")
    @Operation(summary = "Queued batches of the steps the caller may read, oldest first (state 0 New, 1 Processed, "
            + "2 Accessed)")
    public Uni<Page<QueueRow>> queue(@Valid @BeanParam PageRequest page, @QueryParam("processId") @Positive Long processId,
                                     @QueryParam("state") @Min(0) @Max(2) Integer state) {
        return queue.queue(Caller.of(identity), page, processId, state);
    }

    @GET
    @Path("archive")
    @Operation(summary = "Consumed batches, moved here when their consumer's run completed")
    public Uni<Page<QueueRow>> archive(@Valid @BeanParam PageRequest page, @QueryParam("processId") @Positive Long processId) {
        return queue.archive(Caller.of(identity), page, processId);
    }

    @GET
    @Path("lineage/batches/{targetBatchId}")
    @Operation(summary = "The input batches of a run's target batch, with the process and run that produced each")
    public Uni<List<BatchLineage>> lineage(@PathParam("targetBatchId") long targetBatchId) {
        return queue.lineage(Caller.of(identity), targetBatchId);
    }
}
