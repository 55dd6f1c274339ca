package io.batchyard.registry.pipeline;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * Body and answer of {@code POST /pipelines/apply}: an application's plan, computed by a client (the CLI's
 * {@code batchyard apply}) from a pipeline file and the live state, applied in one transaction or not at all.
 * Processes are named, never numbered, so that a file applies to any installation: a parent by its name within the
 * application, a step by its parent's name and its own.
 */
public final class PipelineApi {

    private PipelineApi() {
    }

    /**
     * {@code application}: the application as it is to be (created when absent); {@code expected}: what the plan saw,
     * checked before anything is written; {@code changes}: the process and property changes, in the order given.
     */
    public record ApplyRequest(@NotNull @Valid DesiredApplication application, @NotNull @Valid Expected expected,
                               @NotNull @Size(max = 10_000) List<@NotNull @Valid Change> changes) {
    }

    /** {@code permissions} null: left as they are (a new application gets the defaults). */
    public record DesiredApplication(@NotBlank @Size(max = 45) String name,
                                     @NotBlank @Size(max = 256) String description,
                                     @NotBlank @Size(max = 45) String owner, @Valid Permissions permissions) {
    }

    public record Permissions(@Size(max = 255) String ownerUser, @Size(max = 255) String ownerGroup,
                              @NotNull Integer owner, @NotNull Integer group, @NotNull Integer others) {
    }

    /**
     * The live state the plan was computed from: whether the application existed, its description, owner and (when
     * the planner could read them) permissions, and every live process with the version it had. Any difference is a
     * change made since the plan (a process's properties bump its version too).
     */
    public record Expected(boolean applicationExists, String description, String owner, Permissions permissions,
                           @NotNull @Size(max = 10_000) List<@NotNull @Valid SeenProcess> processes) {
    }

    /** A live process as the plan saw it; {@code step} null for a parent. */
    public record SeenProcess(@NotBlank String parent, String step, int version) {
    }

    public enum Kind { CREATE_PROCESS, UPDATE_PROCESS, DELETE_PROCESS, PUT_PROPERTY, DELETE_PROPERTY }

    /**
     * One change, on the process named by {@code parent} (and {@code step}). A created process is made without its
     * links (next and enqueuing processes may not exist yet); an {@code UPDATE_PROCESS} later in the list sets them.
     * An update carries every field ({@code process}), a property change its property ({@code property}), a property
     * delete the {@code property.key} only.
     */
    public record Change(@NotNull Kind kind, @NotBlank String parent, String step, @Valid ProcessFields process,
                         @Valid PropertyFields property) {
    }

    public record ProcessFields(@Size(max = 256) String description, Integer processTypeId, Integer workflowTypeId,
                                Boolean canRecover, @Size(max = 45) String batchCutPattern,
                                @Size(max = 64) List<@NotNull String> next,
                                @Size(max = 64) List<@NotNull @Valid ProcessRef> enqueuing) {
    }

    /** A parent process by name; {@code application} null for one of the applied application. */
    public record ProcessRef(@Size(max = 45) String application, @NotBlank String process) {
    }

    public record PropertyFields(@Size(max = 128) String configGroup, @NotBlank @Size(max = 128) String key,
                                 @Size(max = 2048) String value, @Size(max = 1028) String description) {
    }

    /** The answer: the application's id, whether it was created, how many process and property changes were made. */
    public record Applied(long applicationId, boolean created, int changes) {
    }
}
