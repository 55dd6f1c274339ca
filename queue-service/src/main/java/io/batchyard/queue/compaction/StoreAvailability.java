package io.batchyard.queue.compaction;

import static io.batchyard.queue.compaction.CompactionError.STORE_NOT_AVAILABLE;

import io.batchyard.queue.compaction.store.StoreLocation;

/**
 * Whether this service has the store a table asks for (328). Checked when a table is registered, and again when an
 * object of a table is registered: a table placed in S3 by an instance that had S3 stays there, and an instance
 * started without S3 answers its registrations with this refusal rather than failing inside the store.
 */
public final class StoreAvailability {

    private StoreAvailability() {
    }

    /** @param s3Available whether this service has an S3 store ({@code batchyard.compaction.s3.enabled}) */
    public static void require(boolean s3Available, StoreLocation location, String subject) {
        if (location.kind() == StoreLocation.Kind.S3 && !s3Available) {
            throw STORE_NOT_AVAILABLE.exception(subject + " asks for the s3 store, which this service does not have "
                    + "(batchyard.compaction.s3.enabled=false)");
        }
    }
}
