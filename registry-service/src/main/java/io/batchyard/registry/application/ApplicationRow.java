package io.batchyard.registry.application;

import io.batchyard.api.access.ApplicationAccess;
import java.time.OffsetDateTime;

/** BDRE's business domain: the application a group of processes belongs to. */
public record ApplicationRow(long id, String name, String description, String owner, OffsetDateTime createdAt,
                             OffsetDateTime updatedAt, Permissions permissions) {

    /** Who owns the application and the permission type of its owner, its owner group and everyone else. */
    public record Permissions(String ownerUser, String ownerGroup, int owner, int group, int others) {
    }

    public ApplicationAccess access() {
        return new ApplicationAccess(id, permissions.ownerUser(), permissions.ownerGroup(), permissions.owner(),
                permissions.group(), permissions.others());
    }
}
