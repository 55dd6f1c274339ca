package io.batchyard.lineage.schema;

import java.time.OffsetDateTime;
import java.util.List;

/** The ordered columns of a table, and whether the API or a CREATE TABLE statement said so last. */
public record TableSchema(String table, List<String> columns, String learnedFrom, OffsetDateTime updatedAt) {
}
