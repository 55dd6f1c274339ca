package io.batchyard.queue.compaction.catalog;

import static io.batchyard.queue.compaction.error.CompactionError.NOTHING_TO_CLOSE;

import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.clock.ServiceClock;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.RangeService;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionAccess;
import io.batchyard.queue.compaction.partition.PartitionService;
import io.batchyard.queue.compaction.partition.PartitionState;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * The catalog step's transactions: each switch, close and publish commits with its event in the outbox. Every one is
 * conditional (a partition switches once, closes once, and a version only grows), so a step repeated after a failure
 * or raced by another instance changes nothing twice.
 */
@ApplicationScoped
public class CatalogService {

    private final PartitionService partitions;
    private final RangeService ranges;
    private final CompactionEvents events;
    private final ServiceClock clock;
    private final PartitionAccess partitionAccess;

    public CatalogService(PartitionService partitions, RangeService ranges, CompactionEvents events,
                          ServiceClock clock, PartitionAccess partitionAccess) {
        this.partitionAccess = partitionAccess;
        this.clock = clock;
        this.partitions = partitions;
        this.ranges = ranges;
        this.events = events;
    }

    /** Switches every closed partition whose merged ranges reach its last live object; returns their ids. */
    @WithTransaction
    public Uni<List<Long>> switchReady() {
        return partitions.switchReady().call(ids -> InOrder.each(ids, id -> partitions.find(id)
                .map(Optional::orElseThrow)
                .chain(p -> ranges.openRange(id).map(open -> open.map(MergeRange::upperBound).orElseThrow())
                        .chain(upper -> events.switched(p, upper)))));
    }

    @WithSession
    public Uni<List<Long>> dueForClose() {
        return partitions.dueForClose(clock.now());
    }

    /** Closes one partition; empty when it has no live object yet (it stays open). */
    @WithTransaction
    public Uni<Optional<Long>> close(long partitionId) {
        return partitions.close(partitionId);
    }

    /** A close a caller asked for: the partition afterwards, and whether this call closed it. */
    public record Closing(Partition partition, boolean closedNow) {
    }

    /**
     * Closes a partition now for {@code caller}: execute permission on its table's application (314 when the caller
     * may not read it). A partition closed already stays as it is ({@code closedNow} false); 315 while it has no live
     * object to close on.
     */
    @WithTransaction
    public Uni<Closing> close(Caller caller, long partitionId) {
        return partitionAccess.require(caller, partitionId, Permission.EXECUTE).chain(before -> {
            if (!before.state().allows(PartitionState.Step.CLOSE)) {
                return Uni.createFrom().item(new Closing(before, false));
            }
            return partitions.close(partitionId).chain(closed -> partitions.find(partitionId)
                    .map(Optional::orElseThrow).map(after -> {
                        if (closed.isEmpty() && after.lastLiveObjectId() == null) {
                            throw NOTHING_TO_CLOSE.exception("partition " + partitionId
                                    + " has no live small object yet");
                        }
                        return new Closing(after, true);
                    }));
        });
    }

    @WithSession
    public Uni<List<Long>> toPublish() {
        return partitions.toPublish();
    }

    /** The partition and its merged ranges, read together. */
    @WithSession
    public Uni<Optional<PartitionRanges>> partitionWithRanges(long partitionId) {
        return partitions.find(partitionId).chain(found -> found.isEmpty() ? Uni.createFrom().item(Optional.empty())
                : ranges.ranges(partitionId).map(merged -> Optional.of(new PartitionRanges(found.get(), merged))));
    }

    /** The same for a caller who holds {@code permission} on the partition's table's application (314 otherwise). */
    @WithSession
    public Uni<PartitionRanges> partitionWithRanges(Caller caller, long partitionId, Permission permission) {
        return partitionAccess.require(caller, partitionId, permission)
                .chain(p -> ranges.ranges(partitionId).map(merged -> new PartitionRanges(p, merged)));
    }

    /** A partition as read, with its merged ranges ascending. */
    public record PartitionRanges(Partition partition, List<MergeRange> ranges) {
    }

    /** Moves the published version from what {@code p} was read with to {@code version}, with its event. */
    @WithTransaction
    public Uni<Boolean> publish(Partition p, long version, String location, int objects, long bytes) {
        return partitions.publish(p.partitionId(), p.currentManifestVersion(), version)
                .call(moved -> moved ? events.published(p, version, location, objects, bytes) : Uni.createFrom().voidItem());
    }
}
