package io.batchyard.registry.application;

import java.time.OffsetDateTime;

/** BDRE's business domain: the application a group of processes belongs to. */
public record ApplicationRow(long id, String name, String description, String owner, OffsetDateTime createdAt,
                             OffsetDateTime updatedAt) {
}
