package io.batchyard.queue.compaction.error;

import io.batchyard.api.ErrorCode;

/** Compaction's errors (311-339; 323-324 are the clock's), next to queue-service's 301-305. */
public enum CompactionError implements ErrorCode {
    UNKNOWN_TABLE(311, 404, "Unknown compaction table"),
    TABLE_EXISTS(312, 409, "Compaction table exists with other settings"),
    OBJECT_MISSING(313, 404, "Object not found in the object store"),
    UNKNOWN_PARTITION(314, 404, "Unknown partition"),
    NOTHING_TO_CLOSE(315, 409, "Partition has no live object to close on"),
    INVALID_OBJECT_KEY(316, 400, "Invalid object key"),
    UNKNOWN_JOB(317, 404, "Unknown merge job"),
    JOB_NOT_DEAD(318, 409, "Merge job is not dead-lettered"),
    NO_MANIFEST(319, 404, "Partition has no published manifest"),
    // The catalog names a manifest the store cannot hand out (volume not mounted, files removed behind the service's
    // back): the service is not usable for that partition until the store is back, which is what 503 tells a reader.
    STORE_UNREADABLE(320, 503, "Object store cannot serve the published manifest"),
    UNKNOWN_QUARANTINED_OBJECT(321, 404, "No quarantined object of that key in the partition"),
    // release and drop are final for each other: a dropped object is not merged again, a released one is already
    // queued for merging (if it is still bad, the merge quarantines it again and it can then be dropped)
    QUARANTINE_STATE(322, 409, "Quarantined object is not in a state that allows this action"),
    // 323-324: the movable clock (io.batchyard.queue.clock.ClockError)
    OUTSIDE_ACCEPTANCE_WINDOW(325, 422, "Partition date is outside the table's acceptance window"),
    // Retired, answered by no operation any more: an object for a published partition behind the mergeable-delay
    // window used to be refused with it, which left the producer to keep the object or lose it. Such an object is now
    // registered, stored and held as late (merged only by a rebuild). The number keeps this meaning and is not reused.
    TOO_LATE_FOR_PUBLISHED_PARTITION(326, 409, "Partition is published and past the table's mergeable-delay window"),
    INVALID_TABLE_SETTINGS(327, 400, "Invalid table settings"),
    // a table asks for the S3 store while this service has none configured (batchyard.compaction.s3.enabled=false):
    // registering it anyway would fail every registration of its objects later
    STORE_NOT_AVAILABLE(328, 422, "The table's object store is not available in this service"),
    /** An operator dropped the table: it takes no objects and merges nothing more. */
    TABLE_DROPPED(329, 409, "Compaction table is dropped"),
    /** A replay's key list is empty, too long, or holds a blank or over-long key. */
    INVALID_REPLAY(330, 400, "Invalid replay request"),
    /** A rebuild re-merges what readers were switched to: an open or closed, not yet switched partition has nothing. */
    PARTITION_NOT_SWITCHED(331, 409, "Partition is not switched yet"),
    // the rebuild renumbers the partition's objects under the merge's nose otherwise: retry once the run ended (or,
    // for a dead-lettered job, after retrying it)
    MERGE_RUNNING(332, 409, "A merge job of the partition is running or dead-lettered"),
    /** Every object of the partition is quarantined or dropped: a rebuild would publish nothing new. */
    NOTHING_TO_REBUILD(333, 409, "Partition has no object to rebuild from"),
    /** An Idempotency-Key already did the same action on another target. */
    IDEMPOTENCY_KEY_REUSED(334, 422, "Idempotency key was used for another request"),
    // the deployment's operator names the buckets tables may use (batchyard.compaction.s3.allowed-buckets): without
    // the list a table could point the service, and its credentials, at any bucket they reach
    BUCKET_NOT_ALLOWED(335, 422, "The table's bucket is not one this deployment allows"),
    // a producer's object lies in its own table's folder of the store: any other key would have the service copy,
    // merge and publish objects of other tables, or anything else in the store, for the caller
    OBJECT_KEY_OUTSIDE_TABLE(336, 400, "Object key is not in the table's folder"),
    // the filesystem store follows no symbolic link: one would lead the service to read or write outside what the key
    // names (another table's objects, or any file the service may open)
    SYMBOLIC_LINK(337, 422, "Object store path is a symbolic link"),
    /** The application a table is registered for is not known to this service, or not one the caller may read. */
    UNKNOWN_APPLICATION(338, 422, "Unknown application"),
    // two tables of one bucket whose prefixes nest would share keys: the outer table's folder could hold the inner
    // table's objects
    STORE_PREFIX_OVERLAP(339, 409, "The table's store prefix nests in another table's");

    private final Spec spec;

    CompactionError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
