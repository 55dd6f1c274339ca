package io.batchyard.queue.compaction.api;

import static io.batchyard.queue.compaction.error.CompactionError.INVALID_REPLAY;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.compaction.AuditEntry;
import io.batchyard.queue.compaction.operator.OperatorService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.LocalDate;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Operator actions on compaction (drop a table, replay registrations, rebuild a partition), each idempotent and audited. */
@RolesAllowed(Roles.OPERATOR)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class OperatorResource {

    /** More keys than this in one call are refused (330): split the list. */
    static final int MAX_KEYS = 1000;

    public record Replay(@NotNull @Pattern(regexp = "^[a-z0-9_]{1,128}$") String schemaName,
                         @NotNull @Pattern(regexp = "^[a-z0-9_]{1,128}$") String tableName,
                         @NotNull @Pattern(regexp = "\\d{4}-\\d{2}-\\d{2}") String partitionDate,
                         List<String> objectKeys) {
    }

    private final OperatorService operator;
    private final SecurityIdentity identity;

    public OperatorResource(OperatorService operator, SecurityIdentity identity) {
        this.operator = operator;
        this.identity = identity;
    }

    @RolesAllowed(Roles.ADMIN)
    @POST
    @Path("tables/{id}/drop")
    @Operation(summary = "Drop a table: its merges and registrations stop, rows and files stay (idempotent; 311)")
    public Uni<OperatorService.Dropped> drop(@PathParam("id") long id) {
        return operator.dropTable(caller().name(), id);
    }

    @POST
    @Path("replay")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register each listed object key once (already known keys are no-ops); per-key outcome (330)")
    public Uni<OperatorService.Replayed> replay(@Valid @NotNull Replay request) {
        List<String> keys = request.objectKeys();
        if (keys == null || keys.isEmpty() || keys.size() > MAX_KEYS
                || keys.stream().anyMatch(k -> k == null || k.isBlank() || k.length() > 1024)) {
            throw INVALID_REPLAY.exception("objectKeys: 1 to " + MAX_KEYS + " non-blank keys of at most 1024 characters");
        }
        LocalDate date;
        try {
            date = LocalDate.parse(request.partitionDate());
        } catch (java.time.DateTimeException e) {
            throw CommonErrors.INVALID_REQUEST.exception("partitionDate is not a valid date (YYYY-MM-DD)");
        }
        return operator.replay(caller(), request.schemaName(), request.tableName(), date, keys);
    }

    @POST
    @Path("partitions/{id}/rebuild")
    @Operation(summary = "Re-merge a switched partition from its small objects, late ones included, into a new "
            + "manifest version; readers keep the old one until the new one is published (idempotent per Idempotency-Key and "
            + "while pending; 314, 329, 331-334); a partition not switched yet takes in its late objects")
    public Uni<OperatorService.Rebuilt> rebuild(@PathParam("id") long id,
                                                @HeaderParam("Idempotency-Key") @Size(min = 1, max = 256) String key) {
        return operator.rebuild(caller(), id, key);
    }

    @GET
    @Path("audit")
    @Operation(summary = "Operator actions on compaction tables the caller may read, newest first: who, what, target, "
            + "result, when")
    public Uni<Page<AuditEntry>> audit(@Valid @BeanParam PageRequest page) {
        return operator.audits(caller(), page);
    }

    /** Who acts: the audit names its principal ("anonymous" only where security is off). */
    private Caller caller() {
        return Caller.of(identity);
    }
}
