package io.batchyard.schemas.lineage;

import java.util.List;

/** The answer of {@code POST /internal/lineage/reach}: one {@link ColumnReach} per asked column, in the asked order. */
public record Reach(List<ColumnReach> columns) {
}
