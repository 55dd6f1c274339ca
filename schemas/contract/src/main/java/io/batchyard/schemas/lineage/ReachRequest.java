package io.batchyard.schemas.lineage;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The body of {@code POST /internal/lineage/reach}: execution-service asks lineage-service which jobs a change of
 * these columns can reach ({@code db.table.column} each), to leave out of a backfill the jobs it cannot.
 */
public record ReachRequest(@NotEmpty @Size(max = 100) List<@NotNull @Size(min = 5, max = 400) String> columns) {
}
