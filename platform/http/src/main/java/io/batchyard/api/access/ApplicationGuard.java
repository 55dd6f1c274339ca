package io.batchyard.api.access;

import io.batchyard.api.ApiException;
import io.batchyard.api.CommonErrors;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one rule for objects that belong to an application, the same in every service:
 * <ul>
 *   <li>a caller without READ on the object's application is told the object does not exist (the service's own
 *       "not found" for it), so a refusal never confirms that another team's object is there;</li>
 *   <li>a caller with READ but without the WRITE or EXECUTE the operation needs gets 403 with code 14, naming only
 *       the object it asked for (which it may see);</li>
 *   <li>lists keep only the objects the caller may read;</li>
 *   <li>an application whose permissions this service never learnt is readable by administrators only.</li>
 * </ul>
 * Administrators pass every check. Services ask here after reading the object and its application's permissions,
 * in the same session as the work, so the check and the work see the same rows.
 */
public final class ApplicationGuard {

    private ApplicationGuard() {
    }

    /** Whether {@code caller} may see objects of the application whose permissions are {@code access}. */
    public static boolean canRead(Caller caller, Optional<ApplicationAccess> access) {
        return allows(caller, access, Permission.READ);
    }

    /** Whether {@code caller} holds {@code permission} (which includes READ for a visible object). */
    public static boolean allows(Caller caller, Optional<ApplicationAccess> access, Permission permission) {
        if (caller.admin()) {
            return true;
        }
        return access.isPresent() && access.get().allows(caller, Permission.READ)
                && access.get().allows(caller, permission);
    }

    /**
     * Passes when {@code caller} holds {@code permission} on the object's application; otherwise throws
     * {@code notFound} when it may not even read it, else 403 (code 14) with {@code object} named.
     *
     * @param object how the refusal names the object, e.g. {@code "process 12"}; only shown to a caller who may
     *               read it
     */
    public static void require(Caller caller, Optional<ApplicationAccess> access, Permission permission,
                               String object, Supplier<? extends ApiException> notFound) {
        if (allows(caller, access, permission)) {
            return;
        }
        if (!canRead(caller, access)) {
            throw notFound.get();
        }
        throw CommonErrors.APPLICATION_PERMISSION.exception(caller.name() + " has no "
                + permission.name().toLowerCase() + " permission on the application of " + object);
    }

    /** Owner or administrator of the application (its permission settings); others are told it does not exist
     * unless they may read it, then 403 (code 14). */
    public static void requireOwner(Caller caller, Optional<ApplicationAccess> access, String object,
                                    Supplier<? extends ApiException> notFound) {
        if (caller.admin() || access.map(a -> a.administeredBy(caller)).orElse(false)) {
            return;
        }
        if (!canRead(caller, access)) {
            throw notFound.get();
        }
        throw CommonErrors.APPLICATION_PERMISSION.exception(caller.name() + " is not the owner of " + object);
    }
}
