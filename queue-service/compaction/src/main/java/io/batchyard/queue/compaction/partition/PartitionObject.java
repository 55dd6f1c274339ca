package io.batchyard.queue.compaction.partition;

import java.time.OffsetDateTime;

/** A small object of a partition as the API lists it: its id, the producer's key, and what became of it. */
public record PartitionObject(long objectId, String objectKey, boolean delayed, long contentLength,
                              OffsetDateTime registeredAt, State state) {

    /** Derived, never stored: from the merged ranges, the quarantine and the object's hold. */
    public enum State {
        /** Registered, not yet reached by a merged range. */
        PENDING,
        /** Registered outside its table's mergeable window: no merge job until the window reaches its partition. */
        WAITING,
        /** Registered for a published partition behind the mergeable window: merges leave it out until a rebuild. */
        LATE,
        /** Its records are in a merged object. */
        MERGED,
        /** A merge could not use it; it waits for an operator. */
        QUARANTINED,
        /** An operator gave it up; it is never merged. */
        DROPPED
    }
}
