package io.batchyard.registry.template;

import com.fasterxml.jackson.annotation.JsonSetter;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Optional;

/** Bodies of the template API. */
public final class TemplateApi {

    private TemplateApi() {
    }

    public record CreateTemplate(
            @NotBlank @Size(max = 45) String name,
            @NotBlank @Size(max = 256) String description,
            @NotNull @Positive Long applicationId,
            @NotNull @Positive Integer processTypeId,
            @Positive Long parentTemplateId,
            Boolean canRecover,
            @Size(max = 45) String batchCutPattern,
            @Size(max = 64) List<@NotNull @Positive Long> nextTemplateIds,
            @PositiveOrZero Integer workflowTypeId) {
    }

    /** Merge-patch semantics as for processes: absent keeps, {@code "batchCutPattern": null} clears. */
    public static final class PatchTemplate {
        @Size(min = 1, max = 45)
        public String name;
        @Size(min = 1, max = 256)
        public String description;
        public Boolean canRecover;
        private Optional<@Size(max = 45) String> batchCutPattern;
        @Size(max = 64)
        public List<@NotNull @Positive Long> nextTemplateIds;
        @PositiveOrZero
        public Integer workflowTypeId;

        @JsonSetter("batchCutPattern")
        public void setBatchCutPattern(String pattern) {
            this.batchCutPattern = Optional.ofNullable(pattern);
        }

        public Optional<String> getBatchCutPattern() {
            return batchCutPattern;
        }
    }

    public record TemplateTree(TemplateRow parent, List<TemplateRow> steps) {
        public static TemplateTree of(List<TemplateRow> rows) {
            return new TemplateTree(rows.get(0), rows.subList(1, rows.size()));
        }
    }

    /**
     * Body of {@code POST /process-templates/{id}/instantiate}: the new processes go to {@code applicationId} (default:
     * the template's) and are named {@code namePrefix + template name}.
     */
    public record Instantiate(@Positive Long applicationId, @Size(max = 20) String namePrefix) {
    }

    public record PropertyTemplateRequest(
            @NotBlank @Size(max = 128) String configGroup,
            @NotNull @Size(max = 2048) String value,
            @Size(max = 1028) String description) {
    }
}
