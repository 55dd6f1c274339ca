package io.batchyard.registry.catalog;

/** A row of one of the plain id/label master tables ({@link MasterTable}), as the repository reads it. */
public record MasterRow(int id, String name) {
}
