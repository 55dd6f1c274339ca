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
import java.time.OffsetDateTime;
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

    // Steps of other features' use cases (closing, switching and publishing, merges, rebuilds): each joins the
    // caller's transaction, which checked the caller first where there is one.

    /** The partition of a table's date, created on the first object registered for it; its id. */
    public Uni<Long> findOrCreate(long tableId, LocalDate date) {
        return partitions.findOrCreate(tableId, date);
    }

    /** Holds the partition's closed state still while an object registers (a close waits for it). */
    public Uni<Void> lockShared(long partitionId) {
        return partitions.lockShared(partitionId);
    }

    /** Closes one partition; its last live object id, empty while it has no live object. */
    public Uni<Optional<Long>> close(long partitionId) {
        return partitions.close(partitionId);
    }

    /** Open partitions whose day ended, in their table's zone, before {@code now}. */
    public Uni<List<Long>> dueForClose(OffsetDateTime now) {
        return partitions.dueForClose(now);
    }

    /** Switches every closed partition whose merged ranges reach its last live object; their ids. */
    public Uni<List<Long>> switchReady() {
        return partitions.switchReady();
    }

    /** Partitions the catalog must (re)publish. */
    public Uni<List<Long>> toPublish() {
        return partitions.toPublish();
    }

    /** Moves the published version from {@code expected} to {@code version}; false if another sync moved it first. */
    public Uni<Boolean> publish(long partitionId, long expected, long version) {
        return partitions.publish(partitionId, expected, version);
    }

    /** Records a rebuild whose chain is complete once it reaches {@code target}. */
    public Uni<Integer> markRebuild(long partitionId, long target) {
        return partitions.markRebuild(partitionId, target);
    }

    /** The version readers should get grows to {@code upper}, never back. */
    public Uni<Integer> raiseDesired(long partitionId, long upper) {
        return partitions.raiseDesired(partitionId, upper);
    }
}
