package io.batchyard.queue.compaction.api;

import static io.batchyard.queue.compaction.api.QueryEnums.parse;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.compaction.merge.MergeJob;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.merge.MergeJobState;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Positive;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The merge-job queue: its jobs, and reviving a dead-lettered one. */
@RolesAllowed(Roles.VIEWER)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class MergeJobResource {

    private final MergeJobService jobs;
    private final SecurityIdentity identity;

    public MergeJobResource(MergeJobService jobs, SecurityIdentity identity) {
        this.jobs = jobs;
        this.identity = identity;
    }

    @GET
    @Path("jobs")
    @Operation(summary = "Merge jobs of the partitions of tables the caller may read")
    public Uni<Page<MergeJob>> jobs(@Valid @BeanParam PageRequest page, @QueryParam("state") String state,
                                    @QueryParam("partitionId") @Positive Long partitionId) {
        return jobs.page(Caller.of(identity), page, parse(MergeJobState.class, "state", state), partitionId);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("jobs/{id}/retry")
    @Operation(summary = "Revive a dead-lettered merge job: pending, due now, with a fresh attempt budget")
    public Uni<Response> retry(@PathParam("id") long id) {
        return jobs.revive(Caller.of(identity), id).replaceWith(Response.noContent().build());
    }
}
