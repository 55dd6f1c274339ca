package io.batchyard.queue.compaction.partition;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/** Reads of partitions, each in one session. */
@ApplicationScoped
public class PartitionService {

    private final PartitionRepository partitions;
    private final SmallObjectRepository objects;

    public PartitionService(PartitionRepository partitions, SmallObjectRepository objects) {
        this.partitions = partitions;
        this.objects = objects;
    }

    /** A partition's small objects with their state, ids ascending, optionally of one state. */
    @WithSession
    public Uni<Page<PartitionObject>> objects(PageRequest page, long partitionId, PartitionObject.State state) {
        return objects.list(partitionId, state, page.limit(), page.offset())
                .chain(items -> objects.count(partitionId, state).map(total -> Page.of(items, total, page)));
    }

    @WithSession
    public Uni<Optional<Partition>> find(long partitionId) {
        return partitions.find(partitionId);
    }

    @WithSession
    public Uni<Page<Partition>> page(PageRequest page, Long tableId) {
        return partitions.list(tableId, page.limit(), page.offset())
                .chain(items -> partitions.count(tableId).map(total -> Page.of(items, total, page)));
    }

    /** Partitions at least this old, for garbage collection. */
    @WithSession
    public Uni<List<Long>> olderThan(LocalDate date) {
        return partitions.olderThan(date);
    }
}
