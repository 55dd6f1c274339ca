package io.batchyard.schemas.backfill;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The body of {@code POST /internal/backfills/impact}: execution-service asks queue-service which runs consumed the
 * batches a restatement makes wrong. The roots are runs of the restated processes ({@code rootRunIds}, found by
 * execution-service from their buckets) and the restated batches themselves ({@code restatedBatchIds}: every run of a
 * process in {@code rootProcessIds} that consumed one is a root too, as is a row still waiting for one). With
 * {@code cascade} the answer follows each root's output batch to the runs that consumed it, and theirs, to the end.
 */
public record ImpactRequest(@NotNull @Size(max = 10_000) List<@NotNull @Positive Long> rootProcessIds,
                            @NotNull @Size(max = 100_000) List<@NotNull @Positive Long> rootRunIds,
                            @NotNull @Size(max = 100_000) List<@NotNull @Positive Long> restatedBatchIds,
                            boolean cascade) {
}
