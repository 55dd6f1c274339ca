package io.batchyard.execution.processlog.api;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.processlog.ProcessLogEntry;
import io.batchyard.execution.processlog.ProcessLogRepository;
import io.batchyard.execution.processlog.ProcessLogService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
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
import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The process log over REST: jobs add key/value execution statistics, anyone who may read asks for the last value. */
@RolesAllowed(Roles.VIEWER)
@Path("/processes/{pid}/log")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "process log")
public class ProcessLogResource {

    /** The column sizes of process_log, so an entry that would not fit is a 400 and never reaches the database. */
    public record AddProcessLog(@NotBlank @Size(max = 2048) String category,
                                @NotBlank @Size(max = 128) String messageId,
                                @NotNull @Size(max = 1024) String message,
                                Long instanceRef,
                                OffsetDateTime addTs) {
    }

    private final ProcessLogService log;
    private final SecurityIdentity identity;

    public ProcessLogResource(ProcessLogService log, SecurityIdentity identity) {
        this.log = log;
        this.identity = identity;
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Operation(summary = "AddProcessLog: record a value (message) under a category and message id, optionally for a run"
            + " (instanceRef); 201 with the entry and its logId")
    public Uni<Response> add(@PathParam("pid") long pid, @Valid AddProcessLog body) {
        if (body == null) {
            throw CommonErrors.INVALID_REQUEST.exception("a JSON body with category, messageId and message is required");
        }
        // PostgreSQL's timestamptz cannot hold every instant Java can parse; outside these years it would fail there.
        if (body.addTs() != null && (body.addTs().getYear() < 1 || body.addTs().getYear() > 9999)) {
            throw CommonErrors.INVALID_REQUEST.exception("addTs must lie between the years 1 and 9999");
        }
        return log.add(Caller.of(identity), pid, new ProcessLogService.NewEntry(body.category(), body.messageId(),
                        body.message(), body.instanceRef(), body.addTs()))
                .map(entry -> Response.created(URI.create("/processes/" + pid + "/log/" + entry.logId()))
                        .entity(entry).build());
    }

    @GET
    @Operation(summary = "Entries of a process, newest first, optionally of one category, message id and run")
    public Uni<Page<ProcessLogEntry>> list(@PathParam("pid") long pid, @QueryParam("category") String category,
                                           @QueryParam("messageId") String messageId,
                                           @QueryParam("instanceRef") Long instanceRef,
                                           @Valid @BeanParam PageRequest page) {
        return log.list(Caller.of(identity), new ProcessLogRepository.Filter(pid, blankToNull(category),
                blankToNull(messageId), instanceRef), page);
    }

    @GET
    @Path("last")
    @Operation(summary = "getLastValue: the newest entry of a message id in a category (404 when there is none)")
    public Uni<ProcessLogEntry> last(@PathParam("pid") long pid, @QueryParam("messageId") @NotBlank String messageId,
                                     @QueryParam("category") @NotBlank String category) {
        return log.last(Caller.of(identity), pid, messageId, category);
    }

    @GET
    @Path("last-instance")
    @Operation(summary = "listLastInstanceRef: every entry of a message id with the highest instanceRef it has")
    public Uni<List<ProcessLogEntry>> lastInstance(@PathParam("pid") long pid,
                                                   @QueryParam("messageId") @NotBlank String messageId) {
        return log.lastInstance(Caller.of(identity), pid, messageId);
    }

    @GET
    @Path("{logId}")
    @Operation(summary = "One entry")
    public Uni<ProcessLogEntry> get(@PathParam("pid") long pid, @PathParam("logId") long logId) {
        return log.get(Caller.of(identity), pid, logId);
    }

    private static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
