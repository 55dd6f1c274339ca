package io.batchyard.queue.compaction;

import static io.batchyard.queue.compaction.CompactionError.JOB_NOT_DEAD;
import static io.batchyard.queue.compaction.CompactionError.NOTHING_TO_CLOSE;
import static io.batchyard.queue.compaction.CompactionError.NO_MANIFEST;
import static io.batchyard.queue.compaction.CompactionError.STORE_UNREADABLE;
import static io.batchyard.queue.compaction.CompactionError.TABLE_EXISTS;
import static io.batchyard.queue.compaction.CompactionError.UNKNOWN_JOB;
import static io.batchyard.queue.compaction.CompactionError.UNKNOWN_PARTITION;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.catalog.CompactionTable;
import io.batchyard.queue.compaction.catalog.TableStore;
import io.batchyard.queue.compaction.merge.MergeJob;
import io.batchyard.queue.compaction.merge.MergeJobState;
import io.batchyard.queue.compaction.partition.ObjectRegistration;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionState;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Small-object compaction: tables, object registration, partitions, merge jobs, the catalog step and GC. */
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class CompactionResource {

    private static final String NAME = "^[a-z0-9_]{1,128}$";

    public record NewTable(@NotNull @Pattern(regexp = NAME) String schemaName, @NotNull @Pattern(regexp = NAME) String tableName,
                           @Min(0) @Max(31_536_000) Integer mergeIntervalSeconds,
                           @Min(-1080) @Max(1080) Integer zoneOffsetMinutes) {
    }

    public record NewObject(@NotNull @Pattern(regexp = NAME) String schemaName, @NotNull @Pattern(regexp = NAME) String tableName,
                            @NotNull @Pattern(regexp = "\\d{4}-\\d{2}-\\d{2}") String partitionDate,
                            @NotBlank @Size(max = 1024) String objectKey) {

        /** A string, not a LocalDate: Jackson's own 400 for a bad date would not be problem+json. */
        LocalDate date() {
            try {
                return LocalDate.parse(partitionDate);
            } catch (java.time.DateTimeException e) {
                throw CommonErrors.INVALID_REQUEST.exception("partitionDate is not a valid date (YYYY-MM-DD)");
            }
        }
    }

    public record Closed(Partition partition, boolean closedNow) {
    }

    public record Collected(long partitionId, List<String> deleted) {
    }

    @Inject
    Compaction compaction;

    @POST
    @Path("tables")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register a table (idempotent: the same definition again answers 200; other settings are 312)")
    public Response registerTable(@Valid @NotNull NewTable request) {
        int interval = request.mergeIntervalSeconds() == null ? 43_200 : request.mergeIntervalSeconds();
        int zone = request.zoneOffsetMinutes() == null ? 0 : request.zoneOffsetMinutes();
        TableStore.Registered r = compaction.jdbi.inTransaction(tx -> compaction.tables.register(tx,
                request.schemaName(), request.tableName(), interval, zone));
        CompactionTable t = r.table();
        if (!r.created() && (t.mergeIntervalSeconds() != interval || t.zoneOffsetMinutes() != zone)) {
            throw TABLE_EXISTS.exception("table " + t.schemaName() + "." + t.tableName() + " exists with merge interval "
                    + t.mergeIntervalSeconds() + " s and zone offset " + t.zoneOffsetMinutes() + " min");
        }
        return (r.created() ? Response.created(URI.create("/compaction/tables/" + t.tableId())) : Response.ok())
                .entity(t).build();
    }

    @GET
    @Path("tables")
    public Page<CompactionTable> tables(@Valid @BeanParam PageRequest page) {
        return compaction.jdbi.withHandle(h -> Page.of(compaction.tables.list(h, page.limit(), page.offset()),
                compaction.tables.count(h), page));
    }

    @POST
    @Path("objects")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register a small object already written to the store (idempotent per table, date and key)")
    public Response registerObject(@Valid @NotNull NewObject request) {
        ObjectRegistration.Registered r = compaction.jdbi.inTransaction(tx -> compaction.registration.register(tx,
                request.schemaName(), request.tableName(), request.date(), request.objectKey()));
        return (r.created() ? Response.status(Response.Status.CREATED) : Response.ok()).entity(r).build();
    }

    @GET
    @Path("partitions")
    public Page<Partition> partitions(@Valid @BeanParam PageRequest page, @QueryParam("tableId") @Positive Long tableId) {
        return compaction.jdbi.withHandle(h -> Page.of(compaction.partitions.list(h, tableId, page.limit(), page.offset()),
                compaction.partitions.count(h, tableId), page));
    }

    @GET
    @Path("partitions/{id}")
    public Partition partition(@PathParam("id") long id) {
        return find(id);
    }

    @POST
    @Path("partitions/{id}/close")
    @Operation(summary = "Close a partition now: later arrivals are delayed (idempotent; 315 while it has no live object)")
    public Closed close(@PathParam("id") long id) {
        Partition before = find(id);
        if (!before.state().allows(PartitionState.Step.CLOSE)) {
            return new Closed(before, false);
        }
        if (compaction.catalog.close(id).isEmpty() && find(id).lastLiveObjectId() == null) {
            throw NOTHING_TO_CLOSE.exception("partition " + id + " has no live small object yet");
        }
        return new Closed(find(id), true);
    }

    @GET
    @Path("partitions/{id}/manifest")
    @Operation(summary = "The manifest readers currently use (319 before the partition's first manifest)")
    public CatalogSync.PublishedManifest manifest(@PathParam("id") long id) {
        Partition p = find(id);
        try {
            return compaction.catalog.current(p).orElseThrow(() -> NO_MANIFEST.exception("partition " + id
                    + " has no published manifest (current version " + p.currentManifestVersion() + ")"));
        } catch (UncheckedIOException e) {
            throw STORE_UNREADABLE.exception("partition " + id + ": manifest version " + p.currentManifestVersion()
                    + " cannot be read from the object store (" + e.getCause().getClass().getSimpleName() + ")");
        }
    }

    @POST
    @Path("partitions/{id}/gc")
    @Operation(summary = "Delete the partition's merged objects superseded by a wider one")
    public Collected gc(@PathParam("id") long id) {
        return new Collected(id, compaction.gc.collect(find(id)));
    }

    @GET
    @Path("jobs")
    public Page<MergeJob> jobs(@Valid @BeanParam PageRequest page, @QueryParam("state") String state,
                               @QueryParam("partitionId") @Positive Long partitionId) {
        MergeJobState s = parseState(state);
        return compaction.jdbi.withHandle(h -> Page.of(compaction.jobs.list(h, s, partitionId, page.limit(), page.offset()),
                compaction.jobs.count(h, s, partitionId), page));
    }

    @POST
    @Path("jobs/{id}/retry")
    @Operation(summary = "Revive a dead-lettered merge job: pending, due now, with a fresh attempt budget")
    public Response retry(@PathParam("id") long id) {
        if (!compaction.jobs.revive(id)) {
            MergeJob job = compaction.jdbi.withHandle(h -> compaction.jobs.find(h, id))
                    .orElseThrow(() -> UNKNOWN_JOB.exception("merge job " + id + " does not exist"));
            throw JOB_NOT_DEAD.exception("merge job " + id + " is " + job.state());
        }
        return Response.noContent().build();
    }

    @POST
    @Path("catalog/sync")
    @Operation(summary = "Run the catalog step now: switch, close, publish")
    public CatalogSync.Summary sync() {
        return compaction.catalog.run();
    }

    private Partition find(long id) {
        return compaction.jdbi.withHandle(h -> compaction.partitions.find(h, id))
                .orElseThrow(() -> UNKNOWN_PARTITION.exception("partition " + id + " does not exist"));
    }

    private static MergeJobState parseState(String state) {
        if (state == null || state.isBlank()) {
            return null;
        }
        try {
            return MergeJobState.valueOf(state.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.exception("state must be one of PENDING, ONGOING, DEAD");
        }
    }
}
