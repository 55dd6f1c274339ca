package io.batchyard.queue.compaction.store;

import static io.batchyard.queue.compaction.error.CompactionError.BUCKET_NOT_ALLOWED;
import static io.batchyard.queue.compaction.error.CompactionError.STORE_NOT_AVAILABLE;


/**
 * Whether this service has the store a table asks for (328) and the deployment allows its bucket (335). Checked when
 * a table is registered, and again when an object of a table is registered or a partition rebuilt: a table placed in
 * S3 by an instance that had S3 stays there, and an instance started without S3, or with an allow-list that no longer
 * names the table's bucket, answers with the refusal rather than failing inside the store.
 */
public final class StoreAvailability {

    private StoreAvailability() {
    }

    public static void require(ObjectStores stores, StoreLocation location, String subject) {
        if (location.kind() != StoreLocation.Kind.S3) {
            return;
        }
        if (!stores.s3Available()) {
            throw STORE_NOT_AVAILABLE.exception(subject + " asks for the s3 store, which this service does not have "
                    + "(batchyard.compaction.s3.enabled=false)");
        }
        if (!stores.bucketAllowed(location.bucket())) {
            throw BUCKET_NOT_ALLOWED.exception(subject + " asks for bucket " + location.bucket()
                    + ", which is not in batchyard.compaction.s3.allowed-buckets");
        }
    }
}
