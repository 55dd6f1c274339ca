package io.batchyard.execution.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.bucket.BucketLedger;
import io.batchyard.execution.bucket.BucketPattern;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.bucket.BuiltinBucketKey;
import io.batchyard.execution.runner.BucketKeys;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.RunnerJobs;
import io.batchyard.execution.runner.WhyNotRunning;
import io.batchyard.execution.schedule.CronSchedule;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitions;
import jakarta.inject.Inject;
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
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** The stand-alone runner: run policies, buckets, backfill, launching, and why a job does not run. */
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
            @Valid RunnerJob.Context context,
            @Min(1) @Max(64) Integer stepConcurrency,
            @Min(1) Integer timeoutSeconds,
            @Valid RunnerJob.Hooks hooks,
            @Size(max = 50) List<RunnerJob.Dependency> dependencies,
            @Valid RunnerJob.Schedule schedule) {
    }

    public record NewBucket(@NotBlank @Size(max = 200) String bucket) {
    }

    public record Backfill(@NotBlank String from, @NotBlank String to) {
    }

    public record BackfillResult(long processId, int added, int alreadyKnown, List<String> buckets) {
    }

    public record BucketKeyRequest(@NotBlank @Size(max = 500) String script, @Size(max = 500) String paramFormat) {
    }

    public record Launched(long processId, boolean started, List<String> buckets, List<Planner.Reason> reasons) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    RunnerJobs jobs;

    @Inject
    BucketLedger ledger;

    @Inject
    ProcessDefinitions definitions;

    @Inject
    RunnerScheduler scheduler;

    @Inject
    Launcher launcher;

    @Inject
    WhyNotRunning why;

    @PUT
    @Path("runner/processes/{pid}")
    @Operation(summary = "Create or replace the run policy of a stand-alone parent (buckets, dependencies, hooks, schedule)")
    public RunnerJob putPolicy(@PathParam("pid") long pid, @Valid RunPolicy p) {
        if (p == null) {
            throw ExecutionError.INVALID_RUN_POLICY.exception("a JSON run policy is required");
        }
        return jdbi.inTransaction(tx -> {
            requireStandAloneParent(tx, pid);
            RunnerJob job = toJob(tx, pid, p);
            jobs.save(tx, job);
            return jobs.find(tx, pid).orElseThrow();
        });
    }

    @GET
    @Path("runner/processes/{pid}")
    public RunnerJob getPolicy(@PathParam("pid") long pid) {
        return jdbi.withHandle(h -> policy(h, pid));
    }

    @DELETE
    @Path("runner/processes/{pid}")
    public Response deletePolicy(@PathParam("pid") long pid) {
        if (!jdbi.inTransaction(tx -> jobs.delete(tx, pid))) {
            throw ExecutionError.NO_RUN_POLICY.exception("process " + pid + " has no run policy");
        }
        return Response.noContent().build();
    }

    @GET
    @Path("runner/processes/{pid}/buckets")
    @Operation(summary = "The bucket ledger of a parent, newest first")
    public Page<BucketStatus> buckets(@PathParam("pid") long pid, @QueryParam("status") String status,
                                      @Valid @BeanParam PageRequest page) {
        BucketStatus.State state = parseState(status);
        return jdbi.withHandle(h -> {
            policy(h, pid);
            return Page.of(ledger.list(h, pid, state, page.limit(), page.offset()), ledger.count(h, pid, state), page);
        });
    }

    @POST
    @Path("runner/processes/{pid}/buckets")
    @Operation(summary = "Record a bucket as waiting (INIT); a known bucket is left as it is")
    public Response addBucket(@PathParam("pid") long pid, @Valid NewBucket body) {
        if (body == null) {
            throw ExecutionError.INVALID_BUCKET.exception("a JSON body with 'bucket' is required");
        }
        String bucket = body.bucket().trim().replaceAll("\\s+", " ");
        return jdbi.inTransaction(tx -> {
            RunnerJob job = policy(tx, pid);
            BucketPattern.of(job.bucket()).filter(p -> !p.matches(bucket)).ifPresent(p -> {
                throw ExecutionError.INVALID_BUCKET.exception("process " + pid + " has " + p.text()
                        + " buckets; '" + bucket + "' is not one");
            });
            boolean added = ledger.ensure(tx, pid, bucket);
            return Response.status(added ? 201 : 200).entity(ledger.find(tx, pid, bucket).orElseThrow()).build();
        });
    }

    @POST
    @Path("runner/processes/{pid}/backfill")
    @Operation(summary = "Record every bucket of a date range as waiting; completed buckets are left alone")
    public BackfillResult backfill(@PathParam("pid") long pid, @Valid Backfill body) {
        if (body == null) {
            throw ExecutionError.INVALID_BUCKET.exception("a JSON body with 'from' and 'to' is required");
        }
        return jdbi.inTransaction(tx -> {
            RunnerJob job = policy(tx, pid);
            BucketPattern pattern = BucketPattern.of(job.bucket()).orElseThrow(() -> ExecutionError.INVALID_BUCKET
                    .exception("backfill needs a date-pattern bucket (YYYYMMDD or YYYYMMDDHH); process " + pid
                            + " has " + (job.bucket() == null ? "none" : job.bucket())));
            List<String> range;
            try {
                range = pattern.range(body.from().trim(), body.to().trim());
            } catch (IllegalArgumentException e) {
                throw ExecutionError.INVALID_BUCKET.exception(e.getMessage());
            }
            int added = 0;
            for (String b : range) {
                added += ledger.ensure(tx, pid, b) ? 1 : 0;
            }
            return new BackfillResult(pid, added, range.size() - added, range);
        });
    }

    @POST
    @Path("runner/processes/{pid}/buckets/{bucket}/retry")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Put a FAILED bucket back to INIT; the next run resumes at the last recoverable step")
    public BucketStatus retry(@PathParam("pid") long pid, @PathParam("bucket") String bucket) {
        return jdbi.inTransaction(tx -> {
            policy(tx, pid);
            if (ledger.move(tx, pid, List.of(bucket), BucketStatus.State.FAILED, BucketStatus.State.INIT, null,
                    "retry requested") != 1) {
                String now = ledger.find(tx, pid, bucket).map(b -> b.status().name()).orElse("absent");
                throw ExecutionError.BUCKET_NOT_RETRYABLE.exception("bucket " + bucket + " of process " + pid + " is "
                        + now + ", only a FAILED bucket can be retried");
            }
            return ledger.find(tx, pid, bucket).orElseThrow();
        });
    }

    @POST
    @Path("runner/processes/{pid}/launch")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Run a launcher cycle now: 202 with the claimed buckets, or 200 with why nothing started")
    public Response launch(@PathParam("pid") long pid) {
        jdbi.withHandle(h -> policy(h, pid));
        Launcher.Cycle cycle = scheduler.launchNow(pid);
        Launched body = new Launched(pid, cycle.claimed().isPresent(),
                cycle.claimed().map(Launcher.Claimed::buckets).orElse(List.of()), cycle.plan().reasons());
        return Response.status(body.started() ? 202 : 200).entity(body).build();
    }

    @GET
    @Path("why/{pid}")
    @Operation(summary = "Why a parent (or one of its buckets) is not running")
    public WhyNotRunning.Explanation why(@PathParam("pid") long pid, @QueryParam("bucket") String bucket) {
        return why.explain(pid, bucket == null || bucket.isBlank() ? null : bucket.trim(), launcher.now());
    }

    @PUT
    @Path("runner/bucket-keys/{key}")
    @Operation(summary = "Define a bucket key resolved by a script (its stdout is the bucket; two values are a range)")
    public BucketKeys.Key putKey(@PathParam("key") @Pattern(regexp = "[A-Za-z][A-Za-z0-9_]{0,99}") String key,
                                 @Valid BucketKeyRequest body) {
        if (body == null) {
            throw ExecutionError.INVALID_RUN_POLICY.exception("a JSON body with 'script' is required");
        }
        BucketKeys.Key k = new BucketKeys.Key(key, body.script().trim(), body.paramFormat());
        jdbi.useTransaction(tx -> BucketKeys.save(tx, k));
        return k;
    }

    @GET
    @Path("runner/bucket-keys")
    public List<BucketKeys.Key> keys() {
        return jdbi.withHandle(BucketKeys::all);
    }

    private RunnerJob policy(Handle h, long pid) {
        return jobs.find(h, pid).orElseThrow(() -> ExecutionError.NO_RUN_POLICY.exception(
                "process " + pid + " has no run policy; PUT /runner/processes/" + pid + " first"));
    }

    private void requireStandAloneParent(Handle h, long pid) {
        Optional<ProcessDefinition> parent = definitions.find(h, pid);
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            throw ExecutionError.NOT_A_STAND_ALONE_PARENT.exception("process " + pid
                    + " is not a live parent process (known to execution-service from the registry's events)");
        }
        if (parent.get().workflowTypeId() != Planner.STAND_ALONE) {
            throw ExecutionError.NOT_A_STAND_ALONE_PARENT.exception("process " + pid + " has workflow type "
                    + parent.get().workflowTypeId() + "; only type " + Planner.STAND_ALONE + " (stand alone) is run by the runner");
        }
    }

    private RunnerJob toJob(Handle h, long pid, RunPolicy p) {
        String bucket = p.bucket() == null || p.bucket().isBlank() ? null : p.bucket().trim();
        if (bucket != null && BucketPattern.of(bucket).isEmpty() && BuiltinBucketKey.of(bucket).isEmpty()
                && BucketKeys.find(h, bucket).isEmpty()) {
            throw ExecutionError.INVALID_RUN_POLICY.exception("bucket '" + bucket + "' is neither YYYYMMDD, YYYYMMDDHH, "
                    + "a built-in key " + List.of(BuiltinBucketKey.values()) + " nor a key defined under /runner/bucket-keys");
        }
        List<RunnerJob.Dependency> deps = p.dependencies() == null ? List.of() : p.dependencies();
        for (RunnerJob.Dependency d : deps) {
            if (d == null || (d.processId() == null && (d.script() == null || d.script().isBlank()))) {
                throw ExecutionError.INVALID_RUN_POLICY.exception("a dependency needs a processId, a script, or both");
            }
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
        RunnerJob.Schedule schedule = p.schedule() == null ? null : new RunnerJob.Schedule(p.schedule().cron().trim(),
                p.schedule().timeZone() == null ? "UTC" : p.schedule().timeZone());
        return new RunnerJob(pid, p.enabled() == null || p.enabled(), bucket, Boolean.TRUE.equals(p.batch()),
                Boolean.TRUE.equals(p.exactMatch()), p.maxBatchSize(), Boolean.TRUE.equals(p.retryFailed()),
                p.context() == null ? RunnerJob.Context.NONE : p.context(),
                p.stepConcurrency() == null ? 4 : p.stepConcurrency(),
                p.timeoutSeconds() == null ? 3600 : p.timeoutSeconds(),
                p.hooks() == null ? RunnerJob.Hooks.NONE : p.hooks(), deps, schedule);
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
