package io.batchyard.api.access;

/**
 * What a caller may do with an application's processes. A permission type is the sum of the bits it grants, as in
 * BDRE: 0 none, 4 read, 6 read + write, 7 read + write + execute.
 */
public enum Permission {
    /** See the application's processes, their properties, runs and workflows. */
    READ(4),
    /** Register, change and delete the application's processes and their properties. */
    WRITE(2),
    /** Make lifecycle calls for the application's processes and launch them. */
    EXECUTE(1);

    private final int bit;

    Permission(int bit) {
        this.bit = bit;
    }

    public boolean grantedBy(int type) {
        return (type & bit) != 0;
    }

    /** The permission types an application may give: each includes the ones before it. */
    public static boolean isType(int type) {
        return type == 0 || type == 4 || type == 6 || type == 7;
    }
}
