package io.batchyard.queue.compaction.partition;

import java.time.OffsetDateTime;

/** A small object of a partition as the API lists it: its id, the producer's key, and what became of it. */
public record PartitionObject(long objectId, String objectKey, boolean delayed, long contentLength,
                              OffsetDateTime registeredAt, State state) {

    /** Derived, never stored: from the merged ranges and the quarantine. */
    public enum State {
        /** Registered, not yet reached by a merged range. */
        PENDING,
        /** Its records are in a merged object. */
        MERGED,
        /** A merge could not use it; it waits for an operator. */
        QUARANTINED,
        /** An operator gave it up; it is never merged. */
        DROPPED
    }
}
