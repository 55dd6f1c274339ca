package io.batchyard.api.access;

/**
 * An application's owner user, owner group and the permission type each class of caller gets. The most specific class
 * decides, as in BDRE: the owner gets {@code owner}, else a member of the owner group gets {@code group}, else
 * {@code others}. An administrator passes every check.
 */
public record ApplicationAccess(long applicationId, String ownerUser, String ownerGroup, int owner, int group,
                                int others) {

    public ApplicationAccess {
        if (!Permission.isType(owner) || !Permission.isType(group) || !Permission.isType(others)) {
            throw new IllegalArgumentException("permission types are 0, 4, 6 or 7");
        }
    }

    /** The permission type {@code caller} holds on this application. */
    public int typeFor(Caller caller) {
        if (caller.admin()) {
            return 7;
        }
        if (ownerUser != null && ownerUser.equals(caller.name())) {
            return owner;
        }
        if (ownerGroup != null && caller.groups().contains(ownerGroup)) {
            return group;
        }
        return others;
    }

    public boolean allows(Caller caller, Permission permission) {
        return permission.grantedBy(typeFor(caller));
    }

    /** The owner and administrators may read and change who may do what. */
    public boolean administeredBy(Caller caller) {
        return caller.admin() || (ownerUser != null && ownerUser.equals(caller.name()));
    }
}
