package io.batchyard.execution.group.api;

import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.group.GroupRules;
import io.batchyard.execution.group.GroupService;
import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.api.RunnerResource;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** PWM job groups: the settings of one job (a step) of a stand-alone parent. */
@RolesAllowed(Roles.VIEWER)
@Path("/runner/processes/{pid}/steps/{sid}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "runner")
public class GroupResource {

    /**
     * PUT body. {@code bucket} (a pattern or key) or {@code bucketSql} (a query), neither: the run's buckets;
     * {@code dependencies} absent: the parent's, {@code []}: none.
     */
    public record JobRequest(Boolean enabled, @Size(max = 200) String bucket, @Size(max = GroupRules.MAX_SQL) String bucketSql,
                             @Size(max = 50) List<RunnerJob.Dependency> dependencies, @Valid RunnerJob.Hooks hooks) {
    }

    private final GroupService groups;
    private final SecurityIdentity identity;

    public GroupResource(GroupService groups, SecurityIdentity identity) {
        this.groups = groups;
        this.identity = identity;
    }

    @GET
    @Operation(summary = "The settings of a job of a group (a step of a stand-alone parent), own or inherited")
    public Uni<GroupService.JobView> get(@PathParam("pid") long pid, @PathParam("sid") long sid) {
        return groups.view(Caller.of(identity), pid, sid);
    }

    @RolesAllowed(Roles.OPERATOR)
    @PUT
    @Operation(summary = "Give a job of a group its own enable flag, bucket rule or query, dependencies and hooks")
    public Uni<GroupService.JobView> put(@PathParam("pid") long pid, @PathParam("sid") long sid, @Valid JobRequest r) {
        if (r == null) {
            throw ExecutionError.INVALID_JOB_SETTINGS.exception("a JSON body is required");
        }
        JobSettings.BucketSource source;
        try {
            source = GroupRules.source(r.bucket(), r.bucketSql());
        } catch (IllegalArgumentException e) {
            throw ExecutionError.INVALID_JOB_SETTINGS.exception(e.getMessage());
        }
        RunnerJob.Hooks hooks = r.hooks() == null ? RunnerJob.Hooks.NONE : r.hooks();
        RunnerResource.requireScriptName("hooks.onInit", hooks.onInit());
        RunnerResource.requireScriptName("hooks.onSuccess", hooks.onSuccess());
        RunnerResource.requireScriptName("hooks.onError", hooks.onError());
        if (r.dependencies() != null) {
            r.dependencies().stream().filter(d -> d != null).forEach(d -> RunnerResource.requireScriptName("dependencies.script", d.script()));
        }
        JobSettings job = new JobSettings(sid, pid, r.enabled() == null || r.enabled(), source,
                source == JobSettings.BucketSource.RULE ? r.bucket().trim() : null,
                source == JobSettings.BucketSource.SQL ? r.bucketSql().strip() : null, r.dependencies(), hooks);
        return groups.save(Caller.of(identity), pid, job);
    }
}
