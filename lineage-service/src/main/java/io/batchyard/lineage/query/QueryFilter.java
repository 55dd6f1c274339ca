package io.batchyard.lineage.query;

/** Filters of the query list; null means any. */
public record QueryFilter(Long processId, Long instanceExecId, StoredQuery.ParseStatus status) {
}
