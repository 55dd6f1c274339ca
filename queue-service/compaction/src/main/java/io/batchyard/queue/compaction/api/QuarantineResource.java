package io.batchyard.queue.compaction.api;

import static io.batchyard.queue.compaction.error.CompactionError.OBJECT_MISSING;
import static io.batchyard.queue.compaction.error.CompactionError.QUARANTINE_STATE;
import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_QUARANTINED_OBJECT;
import static io.batchyard.queue.compaction.api.QueryEnums.parse;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.compaction.partition.QuarantineState;
import io.batchyard.queue.compaction.partition.QuarantinedObject;
import io.batchyard.queue.compaction.quarantine.QuarantineService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * A partition's quarantined objects and the operator's decisions on them. An action names the object by its key as
 * registered, in the query parameter {@code objectKey}: keys contain '/', and a query parameter needs no path-segment
 * encoding rules.
 */
@RolesAllowed(Roles.VIEWER)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class QuarantineResource {

    private final QuarantineService quarantine;
    private final SecurityIdentity identity;

    public QuarantineResource(QuarantineService quarantine, SecurityIdentity identity) {
        this.quarantine = quarantine;
        this.identity = identity;
    }

    @GET
    @Path("partitions/{id}/quarantine")
    @Operation(summary = "The partition's quarantined objects (state QUARANTINED, RELEASED or DROPPED) with the line "
            + "and error that put them there")
    public Uni<Page<QuarantinedObject>> quarantine(@PathParam("id") long id, @Valid @BeanParam PageRequest page,
                                                   @QueryParam("state") String state) {
        QuarantineState filter = parse(QuarantineState.class, "state", state);
        return quarantine.page(caller(), page, id, filter);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("partitions/{id}/quarantine/release")
    @Operation(summary = "Release a quarantined object fixed at its source key: the next merge includes it "
            + "(idempotent; 321 unknown, 322 dropped, 313 source key missing)")
    public Uni<QuarantinedObject> release(@PathParam("id") long id,
                                          @QueryParam("objectKey") @NotBlank @Size(max = 1024) String objectKey) {
        return quarantine.release(caller(), id, objectKey).map(d -> decided(id, objectKey, d));
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("partitions/{id}/quarantine/drop")
    @Operation(summary = "Drop a quarantined object: it is never merged, the row records the decision "
            + "(idempotent; 321 unknown, 322 released)")
    public Uni<QuarantinedObject> drop(@PathParam("id") long id,
                                       @QueryParam("objectKey") @NotBlank @Size(max = 1024) String objectKey) {
        return quarantine.drop(caller(), id, objectKey).map(d -> decided(id, objectKey, d));
    }

    private Caller caller() {
        return Caller.of(identity);
    }

    private static QuarantinedObject decided(long partitionId, String objectKey, QuarantineService.Decision d) {
        return switch (d.outcome()) {
            case DONE, ALREADY -> d.object().orElseThrow();
            case UNKNOWN -> throw UNKNOWN_QUARANTINED_OBJECT.exception("partition " + partitionId
                    + " has no quarantined object " + objectKey);
            case WRONG_STATE -> throw QUARANTINE_STATE.exception("object " + objectKey + " of partition " + partitionId
                    + " is " + d.object().orElseThrow().state());
            case SOURCE_MISSING -> throw OBJECT_MISSING.exception("object " + objectKey
                    + " is not in the object store: write the fixed object there first");
        };
    }
}
