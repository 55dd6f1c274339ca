package io.batchyard.lineage.column;

import java.util.List;
import java.util.Optional;

/** Column names (in order) of a table, by qualified lower-case name {@code db.table}. No Hive metastore exists. */
@FunctionalInterface
public interface TableSchemas {

    Optional<List<String>> columns(String qualifiedTable);

    TableSchemas NONE = name -> Optional.empty();
}
