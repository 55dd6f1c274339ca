package io.batchyard.execution.lifecycle.api;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.execution.lifecycle.LifecycleService;
import io.batchyard.execution.lifecycle.Run;
import io.batchyard.persistence.InOrder;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The lifecycle calls over REST; rejections are problem+json with the public code (101-114). */
@RolesAllowed(Roles.OPERATOR)
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "lifecycle")
public class LifecycleResource {

    public record InitJobRequest(@PositiveOrZero Integer maxBatch) {
    }

    public record HaltJobRequest(@Size(max = 4000) String batchMarking) {
    }

    /** Why the run failed: any code the caller chooses (e.g. an exit code) and a text; both optional. */
    public record TermJobRequest(Integer code, @Size(max = FailureReason.MAX_TEXT) String text) {
    }

    public record StepsHalted(List<Long> subProcessIds) {
    }

    public record JobEnded(long processId, long instanceExecId, String state, Long targetBatchId, String batchMarking) {
        static JobEnded of(Run r) {
            return new JobEnded(r.processId(), r.instanceExecId(), r.state().name(), r.targetBatchId(), r.batchMarking());
        }
    }

    private final LifecycleService lifecycle;
    private final SecurityIdentity identity;

    public LifecycleResource(LifecycleService lifecycle, SecurityIdentity identity) {
        this.lifecycle = lifecycle;
        this.identity = identity;
    }

    private Caller caller() {
        return Caller.of(identity);
    }

    @POST
    @Path("jobs/{pid}/init")
    @Operation(summary = "InitJob: start a run of a parent process and claim its input batches")
    public Uni<LifecycleService.JobStart> initJob(@PathParam("pid") long pid, @Valid InitJobRequest request) {
        Integer maxBatch = request == null ? null : request.maxBatch();
        return lifecycle.initJob(caller(), pid, maxBatch, null);
    }

    @POST
    @Path("steps/{sid}/init")
    @Consumes(MediaType.WILDCARD) // no body: any (or no) Content-Type reaches the call and its security check
    @Operation(summary = "InitStep: a step of the running parent starts")
    public Uni<LifecycleService.StepStart> initStep(@PathParam("sid") long sid) {
        return lifecycle.initStep(caller(), sid, null);
    }

    @POST
    @Path("steps/{sids}/halt")
    @Consumes(MediaType.WILDCARD) // no body: any (or no) Content-Type reaches the call and its security check
    @Operation(summary = "HaltStep: steps completed (a comma list halts each in turn, each in its own transaction)")
    public Uni<StepsHalted> haltSteps(@PathParam("sids") String sids) {
        return InOrder.map(parseIds(sids), sid -> lifecycle.haltStep(caller(), sid, null)).map(StepsHalted::new);
    }

    @POST
    @Path("steps/{sid}/term")
    @Consumes(MediaType.WILDCARD) // no body: any (or no) Content-Type reaches the call and its security check
    @Operation(summary = "TermStep: a step failed")
    public Uni<StepsHalted> termStep(@PathParam("sid") long sid) {
        return lifecycle.termStep(caller(), sid, null).map(termed -> new StepsHalted(List.of(termed)));
    }

    @POST
    @Path("jobs/{pid}/halt")
    @Operation(summary = "HaltJob: the run completed; its target batch goes to every downstream process")
    public Uni<JobEnded> haltJob(@PathParam("pid") long pid, @Valid HaltJobRequest request) {
        String marking = request == null ? null : request.batchMarking();
        return lifecycle.haltJob(caller(), pid, marking, null).map(JobEnded::of);
    }

    @POST
    @Path("jobs/{pid}/term")
    @Consumes(MediaType.WILDCARD) // without a body any (or no) Content-Type, as before it had one: TermJobRequestReader
    @RequestBody(required = false, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TermJobRequest.class)))
    @Operation(summary = "TermJob: the run failed; the next InitJob retries it. The optional body says why (its code"
            + " and text are kept on the run and sent with JobFailed)")
    public Uni<JobEnded> termJob(@PathParam("pid") long pid, @Valid TermJobRequest request) {
        FailureReason reason = request == null ? FailureReason.NONE : new FailureReason(request.code(), request.text());
        return lifecycle.termJob(caller(), pid, reason, null).map(JobEnded::of);
    }

    static List<Long> parseIds(String ids) {
        List<Long> out = new ArrayList<>();
        for (String part : ids.split(",")) {
            try {
                out.add(Long.parseLong(part.trim()));
            } catch (NumberFormatException e) {
                throw CommonErrors.INVALID_REQUEST.exception("sub-process ids must be numbers separated by commas, got '"
                        + ids + "'");
            }
        }
        return out;
    }
}
