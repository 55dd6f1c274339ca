package io.batchyard.lineage.schema;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * The ordered columns of a table, their types where known (column name to type as written), and whether the API or a
 * CREATE TABLE statement said so last.
 */
public record TableSchema(String table, List<String> columns, Map<String, String> types, String learnedFrom,
                          OffsetDateTime updatedAt) {
}
