package io.batchyard.registry.hive;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** Body of POST and PUT {@code /hive-tables}; {@code applicationId} names the application the table belongs to. */
public record HiveTableRequest(
        @NotNull @Positive Long applicationId,
        @Size(max = 256) String comments,
        @NotBlank @Size(max = 45) String locationType,
        @NotBlank @Size(max = 45) @Pattern(regexp = "[A-Za-z0-9_]+") String dbName,
        @Size(max = 45) String batchIdPartitionCol,
        @NotBlank @Size(max = 45) @Pattern(regexp = "[A-Za-z0-9_]+") String tableName,
        @NotNull @Pattern(regexp = "TABLE|VIEW") String type,
        @NotBlank @Size(max = 65536) String ddl) {
}
