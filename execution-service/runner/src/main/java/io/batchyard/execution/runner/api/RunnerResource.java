package io.batchyard.execution.runner.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.ScriptNames;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.runner.BucketKey;
import io.batchyard.execution.runner.JobFiles;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunPolicyService;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.RunnerService;
import io.batchyard.execution.runner.WhyNotRunning;
import io.batchyard.execution.schedule.CronSchedule;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The stand-alone runner: run policies, buckets, backfill, launching, and why a job does not run. */
@RolesAllowed(Roles.VIEWER)
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "runner")
public class RunnerResource {

    /** PUT body; absent fields take the defaults of runner_job. */
    public record RunPolicy(
            Boolean enabled,
            @Size(max = 200) String bucket,
            Boolean batch,
            Boolean exactMatch,
            @Min(1) Integer maxBatchSize,
            Boolean retryFailed,
            @Valid RetryRequest retry,
            @Valid RunnerJob.Context context,
            @Min(1) @Max(64) Integer stepConcurrency,
            @Min(1) Integer timeoutSeconds,
            @Valid RunnerJob.Hooks hooks,
            @Size(max = 50) List<RunnerJob.Dependency> dependencies,
            @Valid RunnerJob.Schedule schedule) {
    }

    /** How failed buckets are retried when retryFailed is on; absent fields take the defaults (3 runs, 30 s, 1 h). */
    public record RetryRequest(@Min(1) @Max(100) Integer maxAttempts, @Min(1) @Max(86_400) Integer backoffSeconds,
                               @Min(1) @Max(604_800) Integer maxBackoffSeconds) {
    }

    public record NewBucket(@NotBlank @Size(max = 200) String bucket) {
    }

    public record Backfill(@NotBlank String from, @NotBlank String to) {
    }

    public record BucketKeyRequest(@NotBlank @Size(max = 500) String script, @Size(max = 500) String paramFormat) {
    }

    public record Launched(long processId, boolean started, List<String> buckets, List<Planner.Reason> reasons) {
    }

    private final RunPolicyService policies;
    private final RunnerService runner;
    private final RunnerScheduler scheduler;
    private final Launcher launcher;
    private final SecurityIdentity identity;

    public RunnerResource(RunPolicyService policies, RunnerService runner, RunnerScheduler scheduler, Launcher launcher,
                          SecurityIdentity identity) {
        this.policies = policies;
        this.runner = runner;
        this.scheduler = scheduler;
        this.launcher = launcher;
        this.identity = identity;
    }

    private Caller caller() {
        return Caller.of(identity);
    }

    @RolesAllowed(Roles.OPERATOR)
    @PUT
    @Path("runner/processes/{pid}")
    @Operation(summary = "Create or replace the run policy of a stand-alone parent (buckets, dependencies, hooks, schedule)")
    public Uni<RunnerJob> putPolicy(@PathParam("pid") long pid, @Valid RunPolicy p) {
        if (p == null) {
            throw ExecutionError.INVALID_RUN_POLICY.exception("a JSON run policy is required");
        }
        // The parent is checked first, as it always was: a policy for a process the runner cannot run is a 408.
        return policies.requireStandAloneParent(caller(), pid).map(parent -> toJob(pid, p))
                .chain(job -> policies.save(caller(), job));
    }

    @GET
    @Path("runner/processes/{pid}")
    public Uni<RunnerJob> getPolicy(@PathParam("pid") long pid) {
        return policies.get(caller(), pid);
    }

    @RolesAllowed(Roles.OPERATOR)
    @DELETE
    @Path("runner/processes/{pid}")
    public Uni<Response> deletePolicy(@PathParam("pid") long pid) {
        return policies.delete(caller(), pid).map(deleted -> Response.noContent().build());
    }

    @GET
    @Path("runner/processes/{pid}/buckets")
    @Operation(summary = "The bucket ledger of a parent, newest first")
    public Uni<Page<BucketStatus>> buckets(@PathParam("pid") long pid, @QueryParam("status") String status,
                                           @Valid @BeanParam PageRequest page) {
        return policies.buckets(caller(), pid, parseState(status), page);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("runner/processes/{pid}/buckets")
    @Operation(summary = "Record a bucket as waiting (INIT); a known bucket is left as it is")
    public Uni<Response> addBucket(@PathParam("pid") long pid, @Valid NewBucket body) {
        if (body == null) {
            throw ExecutionError.INVALID_BUCKET.exception("a JSON body with 'bucket' is required");
        }
        String bucket = body.bucket().trim().replaceAll("\\s+", " ");
        return policies.addBucket(caller(), pid, bucket)
                .map(recorded -> Response.status(recorded.added() ? 201 : 200).entity(recorded.bucket()).build());
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("runner/processes/{pid}/backfill")
    @Operation(summary = "Record every bucket of a date range as waiting; completed buckets are left alone")
    public Uni<RunPolicyService.BackfillResult> backfill(@PathParam("pid") long pid, @Valid Backfill body) {
        if (body == null) {
            throw ExecutionError.INVALID_BUCKET.exception("a JSON body with 'from' and 'to' is required");
        }
        return policies.backfill(caller(), pid, body.from().trim(), body.to().trim());
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("runner/processes/{pid}/buckets/{bucket}/retry")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Put a FAILED bucket back to INIT; the next run resumes at the last recoverable step")
    public Uni<BucketStatus> retry(@PathParam("pid") long pid, @PathParam("bucket") String bucket) {
        return policies.retry(caller(), pid, bucket);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("runner/processes/{pid}/launch")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Run a launcher cycle now: 202 with the claimed buckets, or 200 with why nothing started")
    public Uni<Response> launch(@PathParam("pid") long pid) {
        return policies.launchable(caller(), pid).chain(() -> scheduler.launchNow(pid)).map(cycle -> {
            Launched body = new Launched(pid, cycle.claimed().isPresent(),
                    cycle.claimed().map(Launcher.Claimed::buckets).orElse(List.of()), cycle.plan().reasons());
            return Response.status(body.started() ? 202 : 200).entity(body).build();
        });
    }

    @GET
    @Path("why/{pid}")
    @Operation(summary = "Why a parent (or one of its buckets) is not running")
    public Uni<WhyNotRunning.Explanation> why(@PathParam("pid") long pid, @QueryParam("bucket") String bucket) {
        return runner.explain(caller(), pid, bucket == null || bucket.isBlank() ? null : bucket.trim(),
                launcher.now());
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("runner/bucket-keys/{key}")
    @Operation(summary = "Define a bucket key resolved by a script (its stdout is the bucket; two values are a range)")
    public Uni<BucketKey> putKey(@PathParam("key") @Pattern(regexp = "[A-Za-z][A-Za-z0-9_]{0,99}") String key,
                                               @Valid BucketKeyRequest body) {
        if (body == null) {
            throw ExecutionError.INVALID_RUN_POLICY.exception("a JSON body with 'script' is required");
        }
        requireScriptName("script", body.script());
        return policies.saveKey(new BucketKey(key, body.script().trim(), body.paramFormat()));
    }

    @GET
    @Path("runner/bucket-keys")
    public Uni<List<BucketKey>> keys() {
        return policies.keys();
    }

    /** The policy as a job, its fields checked; the service checks what needs the database (a bucket key). */
    private static RunnerJob toJob(long pid, RunPolicy p) {
        if (p.hooks() != null) {
            requireScriptName("hooks.onInit", p.hooks().onInit());
            requireScriptName("hooks.onSuccess", p.hooks().onSuccess());
            requireScriptName("hooks.onError", p.hooks().onError());
        }
        if (p.context() != null) {
            requireScriptName("context.script", p.context().script());
            requireFileName("context.file", p.context().file());
        }
        String bucket = p.bucket() == null || p.bucket().isBlank() ? null : p.bucket().trim();
        List<RunnerJob.Dependency> deps = p.dependencies() == null ? List.of() : p.dependencies();
        for (RunnerJob.Dependency d : deps) {
            if (d == null || (d.processId() == null && (d.script() == null || d.script().isBlank()))) {
                throw ExecutionError.INVALID_RUN_POLICY.exception("a dependency needs a processId, a script, or both");
            }
            requireScriptName("dependencies[].script", d.script());
            if (d.processId() != null && d.processId() == pid) {
                throw ExecutionError.INVALID_RUN_POLICY.exception("process " + pid + " cannot depend on itself");
            }
        }
        if (p.schedule() != null) {
            if (p.schedule().cron() == null) {
                throw ExecutionError.INVALID_RUN_POLICY.exception("schedule.cron is required");
            }
            try {
                CronSchedule.parse(p.schedule().cron(), p.schedule().timeZone());
            } catch (IllegalArgumentException e) {
                throw ExecutionError.INVALID_RUN_POLICY.exception(e.getMessage());
            }
        }
        RunnerJob.Retry retry = retry(p.retry());
        RunnerJob.Schedule schedule = p.schedule() == null ? null : new RunnerJob.Schedule(p.schedule().cron().trim(),
                p.schedule().timeZone() == null ? "UTC" : p.schedule().timeZone());
        return new RunnerJob(pid, p.enabled() == null || p.enabled(), bucket, Boolean.TRUE.equals(p.batch()),
                Boolean.TRUE.equals(p.exactMatch()), p.maxBatchSize(), Boolean.TRUE.equals(p.retryFailed()), retry,
                p.context() == null ? RunnerJob.Context.NONE : p.context(),
                p.stepConcurrency() == null ? 4 : p.stepConcurrency(),
                p.timeoutSeconds() == null ? 3600 : p.timeoutSeconds(),
                p.hooks() == null ? RunnerJob.Hooks.NONE : p.hooks(), deps, schedule);
    }

    private static RunnerJob.Retry retry(RetryRequest r) {
        RunnerJob.Retry d = RunnerJob.Retry.DEFAULT;
        if (r == null) {
            return d;
        }
        RunnerJob.Retry retry = new RunnerJob.Retry(r.maxAttempts() == null ? d.maxAttempts() : r.maxAttempts(),
                r.backoffSeconds() == null ? d.backoffSeconds() : r.backoffSeconds(),
                r.maxBackoffSeconds() == null ? Math.max(d.maxBackoffSeconds(), r.backoffSeconds() == null ? 0
                        : r.backoffSeconds()) : r.maxBackoffSeconds());
        if (retry.maxBackoffSeconds() < retry.backoffSeconds()) {
            throw ExecutionError.INVALID_RUN_POLICY.exception("retry.maxBackoffSeconds (" + retry.maxBackoffSeconds()
                    + ") must not be below retry.backoffSeconds (" + retry.backoffSeconds() + ")");
        }
        return retry;
    }

    /**
     * A script the runner would refuse at launch is refused here already (an absent one is not: the script directory
     * may be filled after the policy is written). Symlinks are judged at launch only.
     */
    public static void requireScriptName(String field, String script) {
        if (script == null || script.isBlank()) {
            return;
        }
        ScriptNames.whyRefused(script).ifPresent(why -> {
            throw ExecutionError.SCRIPT_NAME_REFUSED.exception(field + ": " + why);
        });
    }

    /**
     * A file the runner would refuse to read at launch (absolute, with a '..' segment) is refused here already; an
     * absent one is not, and a symlink is judged when the file is read.
     */
    private static void requireFileName(String field, String file) {
        if (file == null || file.isBlank()) {
            return;
        }
        JobFiles.whyRefused(file).ifPresent(why -> {
            throw ExecutionError.FILE_NAME_REFUSED.exception(field + ": " + why);
        });
    }

    private static BucketStatus.State parseState(String status) {
        if (status == null || status.isBlank()) {
            return null;
        }
        try {
            return BucketStatus.State.valueOf(status.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ExecutionError.INVALID_BUCKET.exception("status must be one of " + List.of(BucketStatus.State.values()));
        }
    }
}
