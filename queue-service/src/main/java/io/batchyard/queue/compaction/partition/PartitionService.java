package io.batchyard.queue.compaction.partition;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.queue.access.AccessChecks;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * Reads of partitions, each in one session. A caller sees the partitions of tables of applications it may read; any
 * other answers as one that does not exist (314).
 */
@ApplicationScoped
public class PartitionService {

    private final PartitionRepository partitions;
    private final SmallObjectRepository objects;
    private final PartitionAccess partitionAccess;
    private final AccessChecks access;

    public PartitionService(PartitionRepository partitions, SmallObjectRepository objects,
                            PartitionAccess partitionAccess, AccessChecks access) {
        this.partitions = partitions;
        this.objects = objects;
        this.partitionAccess = partitionAccess;
        this.access = access;
    }

    /** A partition's small objects with their state, ids ascending, optionally of one state. */
    @WithSession
    public Uni<Page<PartitionObject>> objects(Caller caller, PageRequest page, long partitionId,
                                              PartitionObject.State state) {
        return partitionAccess.require(caller, partitionId, Permission.READ)
                .chain(p -> objects.list(partitionId, state, page.limit(), page.offset()))
                .chain(items -> objects.count(partitionId, state).map(total -> Page.of(items, total, page)));
    }

    /** A partition the caller may read. */
    @WithSession
    public Uni<Partition> find(Caller caller, long partitionId) {
        return partitionAccess.require(caller, partitionId, Permission.READ);
    }

    /** Batchyard's own read (merge workers, garbage collection): no caller to check. */
    @WithSession
    public Uni<Optional<Partition>> find(long partitionId) {
        return partitions.find(partitionId);
    }

    /** Partitions of the tables the caller may read, optionally of one table. */
    @WithSession
    public Uni<Page<Partition>> page(Caller caller, PageRequest page, Long tableId) {
        return access.visibility(caller).chain(visible -> partitions.list(tableId, visible, page.limit(),
                        page.offset())
                .chain(items -> partitions.count(tableId, visible).map(total -> Page.of(items, total, page))));
    }

    /** Partitions at least this old, for garbage collection. */
    @WithSession
    public Uni<List<Long>> olderThan(LocalDate date) {
        return partitions.olderThan(date);
    }
}
