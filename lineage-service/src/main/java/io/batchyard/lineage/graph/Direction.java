package io.batchyard.lineage.graph;

/** Which way a walk follows relations: towards their sources, their targets, or both. */
public enum Direction { UPSTREAM, DOWNSTREAM, BOTH }
