package io.batchyard.lineage.query;

/** BDRE's LINEAGE_QUERY_TYPE: Hive and plain SQL are parsed; Pig is stored but not parsed (as in the reference). */
public enum QueryType {
    HIVE, SQL, PIG
}
