package io.batchyard.queue.compaction.partition;

import static io.batchyard.queue.compaction.CompactionError.INVALID_OBJECT_KEY;
import static io.batchyard.queue.compaction.CompactionError.OBJECT_MISSING;
import static io.batchyard.queue.compaction.CompactionError.UNKNOWN_TABLE;

import io.batchyard.queue.compaction.catalog.CompactionTable;
import io.batchyard.queue.compaction.catalog.TableStore;
import io.batchyard.queue.compaction.merge.MergeJobQueue;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import org.jdbi.v3.core.Handle;

/**
 * Registers a small object (spec A.5 step 9, for REST and the ObjectCreated topic alike), idempotently per (table,
 * date, object key): a second registration returns the first one's row and changes nothing.
 *
 * <p>The object is placed under its deterministic live/ or delayed/ key <em>before</em> the row commits, so a committed
 * row always has its file; a crash in between leaves an unreferenced file under an id that is never reused.
 */
public final class ObjectRegistration {

    /** The outcome: the object's row, whether this call created it, and where it is stored. */
    public record Registered(SmallObject object, boolean created, String storageKey) {
    }

    private final ObjectStore store;
    private final TableStore tables;
    private final PartitionStore partitions;
    private final SmallObjectStore objects;
    private final MergeJobQueue jobs;

    public ObjectRegistration(ObjectStore store, TableStore tables, PartitionStore partitions, SmallObjectStore objects,
                              MergeJobQueue jobs) {
        this.store = store;
        this.tables = tables;
        this.partitions = partitions;
        this.objects = objects;
        this.jobs = jobs;
    }

    public Registered register(Handle tx, String schema, String table, LocalDate date, String objectKey) {
        try {
            store.checkKey(objectKey);
        } catch (IllegalArgumentException e) {
            throw INVALID_OBJECT_KEY.exception(e.getMessage());
        }
        CompactionTable t = tables.find(tx, schema, table)
                .orElseThrow(() -> UNKNOWN_TABLE.exception("no compaction table " + schema + "." + table));
        long partitionId = partitions.findOrCreate(tx, t.tableId(), date);
        partitions.lockShared(tx, partitionId);
        var existing = objects.find(tx, partitionId, objectKey);
        if (existing.isPresent()) {
            return new Registered(existing.get(), false, storageKey(schema, table, date, existing.get()));
        }
        if (!store.exists(objectKey)) {
            throw OBJECT_MISSING.exception("object " + objectKey + " is not in the object store");
        }
        try {
            long length = store.size(objectKey);
            var inserted = objects.insert(tx, partitionId, objectKey, length);
            if (inserted.isEmpty()) { // a concurrent registration of the same object committed first
                SmallObject first = objects.find(tx, partitionId, objectKey).orElseThrow();
                return new Registered(first, false, storageKey(schema, table, date, first));
            }
            String key = storageKey(schema, table, date, inserted.get());
            store.copy(objectKey, key);
            jobs.enqueue(tx, partitionId, t.mergeInterval());
            return new Registered(inserted.get(), true, key);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot place object " + objectKey, e);
        }
    }

    private static String storageKey(String schema, String table, LocalDate date, SmallObject o) {
        return ObjectKeys.smallObject(ObjectKeys.tablePrefix(schema, table), date, o.objectId(), o.delayed());
    }
}
