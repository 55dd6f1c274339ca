package io.batchyard.schemas.lineage;

import java.util.List;

/**
 * One asked column and the jobs its change reaches: {@code known} false when no lineage names the column (no query
 * ever read or wrote it); {@code jobs} the parent processes whose queries read it or, through any number of hops, a
 * column made from it, in ascending order.
 */
public record ColumnReach(String column, boolean known, List<Long> jobs) {
}
