package io.batchyard.queue.compaction.api;

import static io.batchyard.queue.compaction.error.CompactionError.NO_MANIFEST;
import static io.batchyard.queue.compaction.error.CompactionError.STORE_UNREADABLE;
import static io.batchyard.queue.compaction.api.QueryEnums.parse;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.compaction.catalog.CatalogService;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.gc.GarbageCollector;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.RangeService;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionObject;
import io.batchyard.queue.compaction.partition.PartitionService;
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
import java.io.UncheckedIOException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Partitions of compaction tables: their objects, merged ranges and read location, and the actions on one (close,
 * merge now, GC). Who may do what on a partition is decided by the services, by its table's application.
 */
@RolesAllowed(Roles.VIEWER)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class PartitionResource {

    public record Closed(Partition partition, boolean closedNow) {
    }

    public record Collected(long partitionId, List<String> deleted) {
    }

    /** The answer of a merge-now request: whether a waiting merge job was made due now. */
    public record MergeNow(long partitionId, boolean expedited) {
    }

    private final PartitionService partitions;
    private final RangeService ranges;
    private final CatalogService closing;
    private final CatalogSync catalog;
    private final MergeJobService jobs;
    private final GarbageCollector gc;
    private final SecurityIdentity identity;

    public PartitionResource(PartitionService partitions, RangeService ranges, CatalogService closing,
                             CatalogSync catalog, MergeJobService jobs, GarbageCollector gc,
                             SecurityIdentity identity) {
        this.partitions = partitions;
        this.ranges = ranges;
        this.closing = closing;
        this.catalog = catalog;
        this.jobs = jobs;
        this.gc = gc;
        this.identity = identity;
    }

    @GET
    @Path("partitions")
    @Operation(summary = "Partitions of the tables the caller may read")
    public Uni<Page<Partition>> partitions(@Valid @BeanParam PageRequest page,
                                           @QueryParam("tableId") @Positive Long tableId) {
        return partitions.page(caller(), page, tableId);
    }

    @GET
    @Path("partitions/{id}")
    public Uni<Partition> partition(@PathParam("id") long id) {
        return partitions.find(caller(), id);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("partitions/{id}/close")
    @Operation(summary = "Close a partition now: later arrivals are delayed (idempotent; 315 while it has no live "
            + "object)")
    public Uni<Closed> close(@PathParam("id") long id) {
        return closing.close(caller(), id).map(c -> new Closed(c.partition(), c.closedNow()));
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("partitions/{id}/merge")
    @Operation(summary = "Merge now: the partition's pending merge job, due later, is due at once (expedited false "
            + "when none was waiting)")
    public Uni<MergeNow> mergeNow(@PathParam("id") long id) {
        return jobs.expedite(caller(), id).invoke(expedited -> {
            if (expedited) {
                jobs.wakeWorkers();
            }
        }).map(expedited -> new MergeNow(id, expedited));
    }

    @GET
    @Path("partitions/{id}/manifest")
    @Operation(summary = "The manifest readers currently use; at version 0 the live prefix with no manifest file "
            + "(319 before the partition's first publish)")
    public Uni<CatalogSync.PublishedManifest> manifest(@PathParam("id") long id) {
        return partitions.find(caller(), id).chain(p -> catalog.published(p)
                .onFailure(UncheckedIOException.class).transform(e -> STORE_UNREADABLE.exception("partition " + id
                        + ": manifest version " + p.currentManifestVersion() + " cannot be read from the object store ("
                        + e.getCause().getClass().getSimpleName() + ")"))
                .map(current -> current.orElseThrow(() -> NO_MANIFEST.exception("partition " + id
                        + " has no published manifest (current version " + p.currentManifestVersion() + ")"))));
    }

    @GET
    @Path("partitions/{id}/read-location")
    @Operation(summary = "Where readers read the partition now: its live prefix (before the first publish, or "
            + "published at version 0) or the manifest of the published version")
    public Uni<CatalogSync.ReadLocation> readLocation(@PathParam("id") long id) {
        return partitions.find(caller(), id).map(catalog::readLocation);
    }

    @GET
    @Path("partitions/{id}/objects")
    @Operation(summary = "The partition's small objects, ids ascending, with state PENDING, WAITING, LATE, MERGED, "
            + "QUARANTINED or DROPPED")
    public Uni<Page<PartitionObject>> objects(@PathParam("id") long id, @Valid @BeanParam PageRequest page,
                                              @QueryParam("state") String state) {
        PartitionObject.State filter = parse(PartitionObject.State.class, "state", state);
        return partitions.objects(caller(), page, id, filter);
    }

    @GET
    @Path("partitions/{id}/ranges")
    @Operation(summary = "The partition's merged ranges (lowerBound, upperBound] in small-object ids, ascending")
    public Uni<Page<MergeRange>> ranges(@PathParam("id") long id, @Valid @BeanParam PageRequest page) {
        return ranges.page(caller(), page, id);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("partitions/{id}/gc")
    @Operation(summary = "Delete the partition's merged objects superseded by a wider one")
    public Uni<Collected> gc(@PathParam("id") long id) {
        return gc.collect(caller(), id).map(deleted -> new Collected(id, deleted));
    }

    private Caller caller() {
        return Caller.of(identity);
    }
}
