package io.batchyard.registry.application;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.Caller;
import java.time.OffsetDateTime;

/**
 * BDRE's business domain: the application a group of processes belongs to. As answered to a caller who neither owns
 * it nor is an administrator, only its id, name and description are filled (see {@link #shownTo}); the fields left
 * out are absent from the JSON.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApplicationRow(long id, String name, String description, String owner, OffsetDateTime createdAt,
                             OffsetDateTime updatedAt, Permissions permissions) {

    /** Who owns the application and the permission type of its owner, its owner group and everyone else. */
    public record Permissions(String ownerUser, String ownerGroup, int owner, int group, int others) {
    }

    public ApplicationAccess access() {
        return new ApplicationAccess(id, permissions.ownerUser(), permissions.ownerGroup(), permissions.owner(),
                permissions.group(), permissions.others());
    }

    /**
     * The application as {@code caller} may see it: whole for its owner and administrators, who may read and change
     * its permissions anyway; for anyone else who may read it, its id, name and description, so that who owns it and
     * what each class of caller may do stay with the permissions endpoint, which is theirs.
     */
    public ApplicationRow shownTo(Caller caller) {
        return access().administeredBy(caller) ? this
                : new ApplicationRow(id, name, description, null, null, null, null);
    }
}
