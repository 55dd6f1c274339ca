package io.batchyard.queue.compaction.partition;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * A partition's small objects and their quarantine rows, as steps of other features' use cases (merges, quarantine
 * decisions, rebuilds): each joins the caller's transaction, which checked the caller first where there is one.
 */
@ApplicationScoped
public class SmallObjectService {

    private final SmallObjectRepository objects;
    private final QuarantineRepository quarantine;

    public SmallObjectService(SmallObjectRepository objects, QuarantineRepository quarantine) {
        this.objects = objects;
        this.quarantine = quarantine;
    }

    /** Registers an object; empty when the same source key is already registered for the partition. */
    public Uni<Optional<SmallObject>> insert(long partitionId, String sourceKey, long contentLength,
                                             SmallObject.Hold hold) {
        return objects.insert(partitionId, sourceKey, contentLength, hold);
    }

    /** The object registered under a source key of the partition. */
    public Uni<Optional<SmallObject>> find(long partitionId, String sourceKey) {
        return objects.find(partitionId, sourceKey);
    }

    /** Objects not merged yet (id above {@code above}), ids ascending, live and delayed alike. */
    public Uni<List<SmallObject>> unmerged(long partitionId, long above, int limit) {
        return objects.unmerged(partitionId, above, limit);
    }

    /** The partition's late objects, ids ascending. */
    public Uni<List<SmallObject>> late(long partitionId) {
        return objects.late(partitionId);
    }

    /** The objects a rebuild merges again: all but the quarantined and dropped ones, ids ascending. */
    public Uni<List<SmallObject>> rebuildable(long partitionId) {
        return objects.rebuildable(partitionId);
    }

    /** A fresh id for an object a rebuild merges again. */
    public Uni<SmallObject> renumber(long objectId) {
        return objects.renumber(objectId);
    }

    /** A fresh id for a released object, with its size read anew since it was fixed. */
    public Uni<SmallObject> renumber(long objectId, long contentLength) {
        return objects.renumber(objectId, contentLength);
    }

    /** Partitions of tables not dropped that hold waiting objects no merged range reaches yet, ids ascending. */
    public Uni<List<Long>> partitionsWaiting() {
        return objects.partitionsWaiting();
    }

    /** The partition's waiting objects wait no longer: its merge job was made. */
    public Uni<Integer> stopWaiting(long partitionId) {
        return objects.stopWaiting(partitionId);
    }

    /** Quarantines an object: a new row, or a released one that is bad again. */
    public Uni<Integer> quarantine(long objectId, long partitionId, String sourceKey, Integer lineNumber,
                                   String error) {
        return quarantine.quarantine(objectId, partitionId, sourceKey, lineNumber, error);
    }

    /** Ids above {@code above} that merges must skip (quarantined or dropped), ascending. */
    public Uni<List<Long>> excludedAbove(long partitionId, long above) {
        return quarantine.excludedAbove(partitionId, above);
    }

    /** One page of the partition's quarantine rows, optionally of one state. */
    public Uni<List<QuarantinedObject>> quarantined(long partitionId, QuarantineState state, int limit, int offset) {
        return quarantine.list(partitionId, state, limit, offset);
    }

    /** How many quarantine rows the partition has, optionally of one state. */
    public Uni<Long> countQuarantined(long partitionId, QuarantineState state) {
        return quarantine.count(partitionId, state);
    }

    /** The quarantine row of one object of the partition. */
    public Uni<Optional<QuarantinedObject>> findQuarantined(long partitionId, String sourceKey) {
        return quarantine.find(partitionId, sourceKey);
    }

    /** The quarantine row of one object of the partition, locked for an operator's decision. */
    public Uni<Optional<QuarantinedObject>> lockQuarantined(long partitionId, String sourceKey) {
        return quarantine.lock(partitionId, sourceKey);
    }

    /** An operator's decision on a quarantined object. */
    public Uni<Integer> decide(long objectId, QuarantineState state) {
        return quarantine.decide(objectId, state);
    }
}
