package io.batchyard.queue.compaction.merge;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.queue.compaction.partition.PartitionAccess;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** A partition's merge ranges as readers (GC, tests) and the chain's own checks see them. */
@ApplicationScoped
public class RangeService {

    private final RangeRepository ranges;
    private final PartitionAccess partitions;

    public RangeService(RangeRepository ranges, PartitionAccess partitions) {
        this.ranges = ranges;
        this.partitions = partitions;
    }

    @WithSession
    public Uni<List<MergeRange>> ranges(long partitionId) {
        return ranges.ranges(partitionId);
    }

    /** A partition's ranges, for a caller who may read it (314 otherwise). */
    @WithSession
    public Uni<Page<MergeRange>> page(Caller caller, PageRequest page, long partitionId) {
        return partitions.require(caller, partitionId, Permission.READ)
                .chain(p -> ranges.ranges(partitionId, page.limit(), page.offset()))
                .chain(items -> ranges.count(partitionId).map(total -> Page.of(items, total, page)));
    }

    /** Records one range on its own; the database refuses a range that would break the chain. */
    @WithTransaction
    public Uni<Void> record(long partitionId, MergeRange range) {
        return ranges.upsert(partitionId, range).replaceWithVoid();
    }

    /** The partition's last (open) range, if any merge happened; in the caller's transaction. */
    public Uni<Optional<MergeRange>> openRange(long partitionId) {
        return ranges.openRange(partitionId);
    }

    /** Back to the sentinel (a rebuild); in the caller's transaction. */
    public Uni<Integer> reset(long partitionId) {
        return ranges.reset(partitionId);
    }
}
