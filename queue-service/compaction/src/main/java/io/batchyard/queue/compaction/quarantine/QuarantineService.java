package io.batchyard.queue.compaction.quarantine;

import static io.batchyard.queue.compaction.error.CompactionError.OBJECT_KEY_OUTSIDE_TABLE;
import static io.batchyard.queue.compaction.error.CompactionError.SYMBOLIC_LINK;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.Blocking;
import io.batchyard.queue.clock.ServiceClock;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.partition.PartitionAccess;
import io.batchyard.queue.compaction.partition.QuarantineState;
import io.batchyard.queue.compaction.partition.QuarantinedObject;
import io.batchyard.queue.compaction.partition.SmallObject;
import io.batchyard.queue.compaction.partition.SmallObjectService;
import io.batchyard.queue.compaction.store.LinkRefusedException;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * An operator's side of the quarantine, each action one transaction on the locked quarantine row: release (the object
 * was fixed at its source key and is merged again) and drop (never merged). Repeating an action finds the row in the
 * state it leads to and answers that state again, changing nothing.
 */
@ApplicationScoped
public class QuarantineService {

    /** How an action ended; {@code object} is the row afterwards (absent only for {@link Outcome#UNKNOWN}). */
    public record Decision(Outcome outcome, Optional<QuarantinedObject> object) {
    }

    public enum Outcome {
        /** The action changed the object's state. */
        DONE,
        /** The object already was in the state the action leads to (a repeat). */
        ALREADY,
        /** No quarantined object of that key in the partition. */
        UNKNOWN,
        /** The object's state does not allow the action (a dropped object is not released, nor a released one dropped). */
        WRONG_STATE,
        /** Release: nothing under the object's source key to merge again. */
        SOURCE_MISSING
    }

    private final ObjectStores stores;
    private final SmallObjectService objects;
    private final MergeJobService jobs;
    private final ServiceClock clock;
    private final PartitionAccess partitions;

    public QuarantineService(ObjectStores stores, SmallObjectService objects, MergeJobService jobs,
                             ServiceClock clock, PartitionAccess partitions) {
        this.partitions = partitions;
        this.clock = clock;
        this.stores = stores;
        this.objects = objects;
        this.jobs = jobs;
    }

    /** The partition's quarantined objects, for a caller who may read it (314 otherwise). */
    @WithSession
    public Uni<Page<QuarantinedObject>> page(Caller caller, PageRequest page, long partitionId,
                                             QuarantineState state) {
        return partitions.require(caller, partitionId, Permission.READ)
                .chain(p -> objects.quarantined(partitionId, state, page.limit(), page.offset()))
                .chain(items -> objects.countQuarantined(partitionId, state).map(total -> Page.of(items, total, page)));
    }

    @WithSession
    public Uni<Optional<QuarantinedObject>> find(long partitionId, String objectKey) {
        return objects.findQuarantined(partitionId, objectKey);
    }

    /**
     * Release: the object gets a new id above every merged range (its old id stays covered by a range that holds none
     * of its records), its source key is placed anew under that id (the fixed bytes; the old, bad copy is removed so
     * the live prefix does not hold both), and a merge is due at once. A release whose object is still bad is simply
     * quarantined again by that merge. Execute permission on the partition's table's application (314 when the caller
     * may not read it). The key is read again only in the table's folder, and never through a symbolic link (336,
     * 337), as at registration: an object registered before that rule is dropped rather than released.
     */
    @WithTransaction
    public Uni<Decision> release(Caller caller, long partitionId, String objectKey) {
        return decide(caller, partitionId, objectKey, QuarantineState.Event.RELEASE, q -> {
            if (!ObjectKeys.inTableFolder(objectKey, q.schemaName(), q.tableName())) {
                throw OBJECT_KEY_OUTSIDE_TABLE.exception("object key " + objectKey + " is not in the folder "
                        + ObjectKeys.tableFolder(q.schemaName(), q.tableName()) + " of its table");
            }
            return Blocking.blocking(() -> sizeIfStored(stores.of(q.store()), objectKey))
                    .chain(size -> size < 0 ? Uni.createFrom().item(Outcome.SOURCE_MISSING)
                            : objects.renumber(q.objectId(), size)
                            .call(renumbered -> Blocking.blocking(() -> replace(q, renumbered)))
                            .call(renumbered -> objects.decide(renumbered.objectId(), QuarantineState.RELEASED))
                            .call(() -> jobs.enqueue(partitionId, clock.now()))
                            .replaceWith(Outcome.DONE));
        }).onFailure(LinkRefusedException.class).transform(e -> SYMBOLIC_LINK.exception(e.getMessage()));
    }

    /**
     * Drop: the object is never merged; its row stays as the record of that decision. Execute permission, as for a
     * release.
     */
    @WithTransaction
    public Uni<Decision> drop(Caller caller, long partitionId, String objectKey) {
        return decide(caller, partitionId, objectKey, QuarantineState.Event.DROP,
                q -> objects.decide(q.objectId(), QuarantineState.DROPPED).replaceWith(Outcome.DONE));
    }

    private Uni<Decision> decide(Caller caller, long partitionId, String objectKey, QuarantineState.Event event,
                                 java.util.function.Function<QuarantinedObject, Uni<Outcome>> action) {
        return partitions.require(caller, partitionId, Permission.EXECUTE)
                .chain(p -> objects.lockQuarantined(partitionId, objectKey)).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(new Decision(Outcome.UNKNOWN, Optional.empty()));
            }
            QuarantinedObject q = found.get();
            if (q.state() == QuarantineState.target(event)) {
                return Uni.createFrom().item(new Decision(Outcome.ALREADY, found));
            }
            if (!q.state().allows(event)) {
                return Uni.createFrom().item(new Decision(Outcome.WRONG_STATE, found));
            }
            return action.apply(q).chain(outcome -> objects.findQuarantined(partitionId, objectKey)
                    .map(after -> new Decision(outcome, after)));
        });
    }

    private static long sizeIfStored(ObjectStore store, String key) throws IOException {
        return store.exists(key) ? store.size(key) : -1L;
    }

    private Void replace(QuarantinedObject q, SmallObject renumbered) {
        String prefix = ObjectKeys.tablePrefix(q.schemaName(), q.tableName());
        ObjectStore store = stores.of(q.store());
        try {
            store.copy(q.objectKey(), ObjectKeys.smallObject(prefix, q.partitionDate(), renumbered.objectId(),
                    renumbered.delayed()));
            store.delete(ObjectKeys.smallObject(prefix, q.partitionDate(), q.objectId(), renumbered.delayed()));
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot place released object " + q.objectKey(), e);
        }
    }
}
