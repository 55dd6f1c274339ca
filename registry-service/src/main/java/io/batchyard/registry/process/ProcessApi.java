package io.batchyard.registry.process;

import com.fasterxml.jackson.annotation.JsonSetter;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Request and response bodies of the process API (kept apart from rows so the table can change freely; the
 * conversions are in {@link ProcessMapping}).
 */
public final class ProcessApi {

    private ProcessApi() {
    }

    /** Body of {@code POST /processes}. {@code id} is optional: imports and fixtures may choose it. */
    public record CreateProcess(
            @Positive Long id,
            @NotBlank @Size(max = 45) String name,
            @NotBlank @Size(max = 256) String description,
            @NotNull @Positive Long applicationId,
            @NotNull @Positive Integer processTypeId,
            @Positive Long parentProcessId,
            Boolean canRecover,
            @Size(max = 64) List<@NotNull @Positive Long> enqueuingProcessIds,
            @Size(max = 45) String batchCutPattern,
            @Size(max = 64) List<@NotNull @Positive Long> nextProcessIds,
            @PositiveOrZero Integer workflowTypeId,
            @Positive Long serverId) {
    }

    /**
     * Body of {@code PATCH /processes/{id}}, with JSON merge-patch semantics: absent fields keep their value and
     * {@code "batchCutPattern": null} clears the pattern. {@code version}, when given, must match the current one
     * (optimistic locking). A class, not a record: a record cannot tell an absent field from an explicit null.
     */
    public static final class PatchProcess {
        @Size(min = 1, max = 45)
        public String name;
        @Size(min = 1, max = 256)
        public String description;
        @Positive
        public Long applicationId;
        /**
         * Accepted only when it names the parent the process already has: a step never moves to another parent, and a
         * parent never becomes a step (refused with 205 rather than ignored, so the caller learns the change was not
         * made).
         */
        @Positive
        public Long parentProcessId;
        @Positive
        public Integer processTypeId;
        public Boolean canRecover;
        @Size(max = 64)
        public List<@NotNull @Positive Long> enqueuingProcessIds;
        /** Null: absent; empty: clear the pattern. */
        private Optional<@Size(max = 45) String> batchCutPattern;
        @Size(max = 64)
        public List<@NotNull @Positive Long> nextProcessIds;
        @PositiveOrZero
        public Integer workflowTypeId;
        @PositiveOrZero
        public Integer version;
        /** Null: absent; empty: name no server any more. */
        private Optional<@Positive Long> serverId;

        @JsonSetter("batchCutPattern")
        public void setBatchCutPattern(String pattern) {
            this.batchCutPattern = Optional.ofNullable(pattern);
        }

        public Optional<String> getBatchCutPattern() {
            return batchCutPattern;
        }

        @JsonSetter("serverId")
        public void setServerId(Long serverId) {
            this.serverId = Optional.ofNullable(serverId);
        }

        public Optional<Long> getServerId() {
            return serverId;
        }

        /** A patch that only relinks a process. */
        public static PatchProcess nextOnly(List<Long> next) {
            PatchProcess p = new PatchProcess();
            p.nextProcessIds = next;
            return p;
        }
    }

    public record Process(
            long id,
            String name,
            String description,
            long applicationId,
            int processTypeId,
            Long parentProcessId,
            boolean canRecover,
            List<Long> enqueuingProcessIds,
            String batchCutPattern,
            List<Long> nextProcessIds,
            boolean deleted,
            int workflowTypeId,
            Long processTemplateId,
            UUID processCode,
            int version,
            OffsetDateTime createdAt,
            OffsetDateTime updatedAt,
            Long serverId) {
    }

    /** A parent process with its steps. */
    public record ProcessTree(Process parent, List<Process> steps) {
    }
}
