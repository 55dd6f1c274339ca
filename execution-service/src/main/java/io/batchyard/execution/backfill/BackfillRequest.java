package io.batchyard.execution.backfill;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * What a backfill is asked for: the restated roots (processes, whose runs and waiting rows are redone), the range
 * (the restated batches, and/or the buckets from {@code fromBucket} to {@code toBucket}, both included), which of the
 * roots' buckets to redo ({@code mode}: {@code all} (default), {@code failed}, {@code missing}) and whether to follow
 * their output to every run that consumed it ({@code cascade}, default true; only {@code all} cascades: a failed or
 * missing bucket produced nothing anyone consumed).
 */
public record BackfillRequest(@NotEmpty @Size(max = 1000) List<@Valid @NotNull Root> roots,
                              @Size(max = 10_000) List<@NotNull @Positive Long> batchIds,
                              @Size(max = 200) String fromBucket,
                              @Size(max = 200) String toBucket,
                              @Pattern(regexp = "all|failed|missing") String mode,
                              Boolean cascade) {

    /**
     * A restated process (a parent) and, optionally, the only columns of its output that changed
     * ({@code db.table.column}): then the entries downstream whose jobs the column lineage of none of them reaches
     * are pruned. Without columns the whole output changed and nothing downstream of it is pruned.
     */
    public record Root(@NotNull @Positive Long processId,
                       @Size(max = 100) List<@NotNull @Pattern(regexp = COLUMN, message = "a column is named"
                               + " db.table.column") String> columns) {

        public Root(Long processId) {
            this(processId, null);
        }

        public List<String> columnsOrNone() {
            return columns == null ? List.of() : columns;
        }
    }

    /** {@code db.table.column}: three names of letters, digits and underscores. */
    static final String COLUMN = "[A-Za-z0-9_]{1,128}\\.[A-Za-z0-9_]{1,128}\\.[A-Za-z0-9_]{1,128}";

    /** Whether some root names columns: the plan asks the column lineage which jobs they reach. */
    public boolean namesColumns() {
        return roots.stream().anyMatch(r -> !r.columnsOrNone().isEmpty());
    }

    public String modeOrDefault() {
        return mode == null ? "all" : mode;
    }

    public boolean cascadeOrDefault() {
        return cascade == null || cascade;
    }

    public List<Long> batchIdsOrNone() {
        return batchIds == null ? List.of() : batchIds;
    }

    public boolean hasBucketRange() {
        return fromBucket != null && toBucket != null;
    }
}
