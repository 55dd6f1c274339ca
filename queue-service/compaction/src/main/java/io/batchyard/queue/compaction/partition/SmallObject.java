package io.batchyard.queue.compaction.partition;

/**
 * A registered small object; {@code delayed} was fixed when it arrived and never changes. {@code hold} says why no
 * merge job was made for it (null: none was needed): it waits for its partition to come into its table's mergeable
 * window, or it came late for a published partition and merges leave it out until a rebuild takes it in.
 */
public record SmallObject(long objectId, long partitionId, String sourceKey, boolean delayed, long contentLength,
                          Hold hold) {

    /** Why an object's arrival made no merge job. */
    public enum Hold {
        /** Its partition's date is outside the mergeable window, and the partition is not published or lies ahead. */
        WAITING,
        /** Its partition is published and its date lies behind the mergeable window: merges leave it out. */
        LATE
    }

    public boolean late() {
        return hold == Hold.LATE;
    }
}
