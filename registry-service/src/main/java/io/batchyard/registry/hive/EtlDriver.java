package io.batchyard.registry.hive;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

/** The raw table, raw view and base table of a data-load parent process (BDRE ETL_DRIVER). */
public record EtlDriver(@NotNull @Positive Long rawTableId, @Positive Long baseTableId,
                        @NotNull @Positive Long rawViewId, Short insertType, Boolean dropRaw) {
}
