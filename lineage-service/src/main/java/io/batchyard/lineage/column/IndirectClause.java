package io.batchyard.lineage.column;

/**
 * The clause an indirect edge's column was read in; the names are OpenLineage's INDIRECT transformation subtypes.
 * JOIN: a JOIN ... ON condition; FILTER: WHERE or HAVING; GROUP_BY; SORT: ORDER BY (SORT BY and CLUSTER BY are read as
 * ORDER BY); WINDOW: a window's PARTITION BY or ORDER BY; CONDITIONAL: a CASE ... WHEN condition or IF's condition.
 */
public enum IndirectClause { JOIN, FILTER, GROUP_BY, SORT, WINDOW, CONDITIONAL }
