package io.batchyard.queue.compaction.api;


import io.batchyard.api.CommonErrors;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.compaction.ObjectRegistrationService;
import io.batchyard.queue.compaction.catalog.CatalogService;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.gc.GarbageCollector;
import io.batchyard.queue.compaction.merge.MergeJob;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.merge.MergeJobState;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.RangeService;
import io.batchyard.queue.compaction.partition.PartitionObject;
import io.batchyard.queue.compaction.partition.QuarantineState;
import io.batchyard.queue.compaction.partition.QuarantinedObject;
import io.batchyard.queue.compaction.quarantine.QuarantineService;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionService;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.batchyard.queue.compaction.table.CompactionTable;
import io.batchyard.queue.compaction.table.TableService;
import io.batchyard.queue.compaction.table.TableSettings;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
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
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import static io.batchyard.queue.CompactionError.INVALID_TABLE_SETTINGS;
import static io.batchyard.queue.CompactionError.NO_MANIFEST;
import static io.batchyard.queue.CompactionError.OBJECT_MISSING;
import static io.batchyard.queue.CompactionError.QUARANTINE_STATE;
import static io.batchyard.queue.CompactionError.UNKNOWN_QUARANTINED_OBJECT;
import static io.batchyard.queue.CompactionError.STORE_UNREADABLE;

/**
 * Small-object compaction: tables, object registration, partitions (their objects, ranges, quarantine and read location),
 * merge jobs, the catalog step and GC. Quarantine actions name the object by its key as registered, in the query
 * parameter {@code objectKey}: keys contain '/', and a query parameter needs no path-segment encoding rules. Who may
 * do what on a table, its partitions and its jobs is decided by the services, by the table's application.
 */
@RolesAllowed(Roles.VIEWER)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class CompactionResource {

    private static final String NAME = "^[a-z0-9_]{1,128}$";

    /** A table to register; {@code applicationId} absent: the seeded application 1. */
    public record NewTable(@NotNull @Pattern(regexp = NAME) String schemaName, @NotNull @Pattern(regexp = NAME) String tableName,
                           @Min(0) @Max(31_536_000) Integer mergeIntervalSeconds,
                           @Min(-1080) @Max(1080) Integer zoneOffsetMinutes, @Valid NewStore store,
                           @Positive Long applicationId) {

        StoreLocation location() {
            return store == null ? StoreLocation.FILESYSTEM : store.location();
        }
    }

    /**
     * Where the table's objects live: {@code filesystem} (the default) or {@code s3} with a bucket and an optional key
     * prefix (relative segments, each ending in '/'). The same rules are CHECK constraints of migration V7.
     */
    public record NewStore(@NotNull @Pattern(regexp = "filesystem|s3") String kind,
                           @Pattern(regexp = "[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]") String bucket,
                           @Size(max = 512) @Pattern(regexp = "([A-Za-z0-9_.=-]+/)*") String prefix) {

        StoreLocation location() {
            if (kind.equals("filesystem")) {
                if (bucket != null || prefix != null && !prefix.isEmpty()) {
                    throw CommonErrors.INVALID_REQUEST.exception("a filesystem store takes no bucket and no prefix");
                }
                return StoreLocation.FILESYSTEM;
            }
            if (bucket == null) {
                throw CommonErrors.INVALID_REQUEST.exception("an s3 store needs a bucket");
            }
            if (prefix != null && java.util.Arrays.stream(prefix.split("/")).anyMatch(s -> s.equals(".") || s.equals(".."))) {
                throw CommonErrors.INVALID_REQUEST.exception("a store prefix may not contain '.' or '..' segments");
            }
            return StoreLocation.s3(bucket, prefix);
        }
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

    /**
     * A table's settings, all replaced at once: a null (absent) value means the global default, except the merge
     * interval (required) and the time zone (absent: the table's registered zone offset).
     */
    public record NewSettings(@Positive Long mergedObjectSize, @NotNull @Min(0) @Max(31_536_000) Integer mergeIntervalSeconds,
                              @Min(0) @Max(36_600) Integer acceptancePastDays, @Min(0) @Max(36_600) Integer acceptanceFutureDays,
                              @Min(0) @Max(36_600) Integer mergeableDelayDays, @Size(max = 64) String timeZone) {

        TableSettings settings() {
            return new TableSettings(mergedObjectSize, mergeIntervalSeconds, acceptancePastDays, acceptanceFutureDays,
                    mergeableDelayDays, timeZone == null ? null : region(timeZone));
        }

        /**
         * Only region ids ("Europe/Paris", "UTC"): PostgreSQL reads a bare offset such as "+05:00" with the POSIX sign
         * (east negative), so the database would close partitions ten hours apart from what Java means by it.
         */
        private static String region(String zone) {
            try {
                ZoneId id = ZoneId.of(zone);
                if (id instanceof ZoneOffset || !zone.matches("[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*")
                        || zone.startsWith("UTC+") || zone.startsWith("UTC-") || zone.startsWith("GMT+")
                        || zone.startsWith("GMT-")) {
                    throw INVALID_TABLE_SETTINGS.exception("timeZone must be a region id such as Europe/Paris, not an offset: "
                            + zone);
                }
                return id.getId();
            } catch (java.time.DateTimeException e) {
                throw INVALID_TABLE_SETTINGS.exception("timeZone is not a known zone id: " + zone);
            }
        }
    }

    public record Closed(Partition partition, boolean closedNow) {
    }

    public record Collected(long partitionId, List<String> deleted) {
    }

    private final TableService tables;
    private final ObjectRegistrationService registration;
    private final PartitionService partitions;
    private final MergeJobService jobs;
    private final CatalogSync catalog;
    private final GarbageCollector gc;
    private final RangeService ranges;
    private final QuarantineService quarantine;
    private final CatalogService closing;
    private final SecurityIdentity identity;

    public CompactionResource(TableService tables, ObjectRegistrationService registration, PartitionService partitions,
                              MergeJobService jobs, CatalogSync catalog, GarbageCollector gc, RangeService ranges,
                              QuarantineService quarantine, CatalogService closing, SecurityIdentity identity) {
        this.closing = closing;
        this.identity = identity;
        this.tables = tables;
        this.registration = registration;
        this.partitions = partitions;
        this.jobs = jobs;
        this.catalog = catalog;
        this.gc = gc;
        this.ranges = ranges;
        this.quarantine = quarantine;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @POST
    @Path("tables")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register a table of an application (idempotent: the same definition again answers 200; "
            + "other settings are 312)")
    public Uni<Response> registerTable(@Valid @NotNull NewTable request) {
        int interval = request.mergeIntervalSeconds() == null ? 43_200 : request.mergeIntervalSeconds();
        int zone = request.zoneOffsetMinutes() == null ? 0 : request.zoneOffsetMinutes();
        long application = request.applicationId() == null ? TableService.SEEDED_APPLICATION : request.applicationId();
        return tables.register(caller(), request.schemaName(), request.tableName(), interval, zone, request.location(),
                application).map(r -> (r.created()
                        ? Response.created(URI.create("/compaction/tables/" + r.table().tableId())) : Response.ok())
                .entity(r.table()).build());
    }

    @GET
    @Path("tables")
    @Operation(summary = "The tables of the applications the caller may read")
    public Uni<Page<CompactionTable>> tables(@Valid @BeanParam PageRequest page) {
        return tables.page(caller(), page);
    }

    @GET
    @Path("tables/{id}/settings")
    @Operation(summary = "A table's own settings (null: the global default) and the values its decisions use now")
    public Uni<TableService.Settings> tableSettings(@PathParam("id") long id) {
        return tables.settings(caller(), id);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("tables/{id}/settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace a table's settings; the next merge, close and registration decisions use them (327)")
    public Uni<TableService.Settings> updateTableSettings(@PathParam("id") long id, @Valid @NotNull NewSettings request) {
        return tables.updateSettings(caller(), id, request.settings());
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("objects")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register a small object already written to the table's folder of the store (idempotent per "
            + "table, date and key)")
    public Uni<Response> registerObject(@Valid @NotNull NewObject request) {
        LocalDate date = request.date();
        return registration.register(caller(), request.schemaName(), request.tableName(), date, request.objectKey())
                .map(r -> (r.created() ? Response.status(Response.Status.CREATED) : Response.ok()).entity(r).build());
    }

    @GET
    @Path("partitions")
    @Operation(summary = "Partitions of the tables the caller may read")
    public Uni<Page<Partition>> partitions(@Valid @BeanParam PageRequest page, @QueryParam("tableId") @Positive Long tableId) {
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
    @Operation(summary = "Close a partition now: later arrivals are delayed (idempotent; 315 while it has no live object)")
    public Uni<Closed> close(@PathParam("id") long id) {
        return closing.close(caller(), id).map(c -> new Closed(c.partition(), c.closedNow()));
    }

    /** The answer of a merge-now request: whether a waiting merge job was made due now. */
    public record MergeNow(long partitionId, boolean expedited) {
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("partitions/{id}/merge")
    @Operation(summary = "Merge now: the partition's pending merge job, due later, is due at once (expedited false when "
            + "none was waiting)")
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

    @GET
    @Path("partitions/{id}/quarantine")
    @Operation(summary = "The partition's quarantined objects (state QUARANTINED, RELEASED or DROPPED) with the line and "
            + "error that put them there")
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

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("partitions/{id}/gc")
    @Operation(summary = "Delete the partition's merged objects superseded by a wider one")
    public Uni<Collected> gc(@PathParam("id") long id) {
        return gc.collect(caller(), id).map(deleted -> new Collected(id, deleted));
    }

    @GET
    @Path("jobs")
    @Operation(summary = "Merge jobs of the partitions of tables the caller may read")
    public Uni<Page<MergeJob>> jobs(@Valid @BeanParam PageRequest page, @QueryParam("state") String state,
                                    @QueryParam("partitionId") @Positive Long partitionId) {
        return jobs.page(caller(), page, parse(MergeJobState.class, "state", state), partitionId);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("jobs/{id}/retry")
    @Operation(summary = "Revive a dead-lettered merge job: pending, due now, with a fresh attempt budget")
    public Uni<Response> retry(@PathParam("id") long id) {
        return jobs.revive(caller(), id).replaceWith(Response.noContent().build());
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("catalog/sync")
    @Operation(summary = "Run the catalog step now: switch, close, publish, then merge jobs for partitions whose "
            + "objects waited for the mergeable window and that it reaches now")
    public Uni<CatalogSync.Summary> sync() {
        return catalog.run();
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

    /** An optional enum query parameter, case-insensitive; anything else is a 400 naming the allowed values. */
    private static <E extends Enum<E>> E parse(Class<E> type, String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.exception(name + " must be one of "
                    + String.join(", ", java.util.Arrays.stream(type.getEnumConstants()).map(Enum::name).toList()));
        }
    }
}
