package io.batchyard.queue.compaction.api;

import static io.batchyard.queue.compaction.error.CompactionError.INVALID_TABLE_SETTINGS;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Compaction tables: registration, the list and each table's settings. Who may do what on a table is decided by the
 * service, by the table's application.
 */
@RolesAllowed(Roles.VIEWER)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class TableResource {

    static final String NAME = "^[a-z0-9_]{1,128}$";

    /** A table to register; {@code applicationId} absent: the seeded application 1. */
    public record NewTable(@NotNull @Pattern(regexp = NAME) String schemaName,
                           @NotNull @Pattern(regexp = NAME) String tableName,
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
            if (prefix != null && Arrays.stream(prefix.split("/")).anyMatch(s -> s.equals(".") || s.equals(".."))) {
                throw CommonErrors.INVALID_REQUEST.exception("a store prefix may not contain '.' or '..' segments");
            }
            return StoreLocation.s3(bucket, prefix);
        }
    }

    /**
     * A table's settings, all replaced at once: a null (absent) value means the global default, except the merge
     * interval (required) and the time zone (absent: the table's registered zone offset).
     */
    public record NewSettings(@Positive Long mergedObjectSize,
                              @NotNull @Min(0) @Max(31_536_000) Integer mergeIntervalSeconds,
                              @Min(0) @Max(36_600) Integer acceptancePastDays,
                              @Min(0) @Max(36_600) Integer acceptanceFutureDays,
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
                    throw INVALID_TABLE_SETTINGS.exception(
                            "timeZone must be a region id such as Europe/Paris, not an offset: " + zone);
                }
                return id.getId();
            } catch (DateTimeException e) {
                throw INVALID_TABLE_SETTINGS.exception("timeZone is not a known zone id: " + zone);
            }
        }
    }

    private final TableService tables;
    private final SecurityIdentity identity;

    public TableResource(TableService tables, SecurityIdentity identity) {
        this.tables = tables;
        this.identity = identity;
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
    public Uni<TableService.Settings> updateTableSettings(@PathParam("id") long id,
                                                          @Valid @NotNull NewSettings request) {
        return tables.updateSettings(caller(), id, request.settings());
    }

    private Caller caller() {
        return Caller.of(identity);
    }
}
