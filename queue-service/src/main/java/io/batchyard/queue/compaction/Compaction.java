package io.batchyard.queue.compaction;

import io.batchyard.eventing.Outbox;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.catalog.CompactionEvents;
import io.batchyard.queue.compaction.catalog.TableStore;
import io.batchyard.queue.compaction.gc.GarbageCollector;
import io.batchyard.queue.compaction.merge.MergeHook;
import io.batchyard.queue.compaction.merge.MergeJobQueue;
import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.merge.MergeWorker;
import io.batchyard.queue.compaction.merge.RangeStore;
import io.batchyard.queue.compaction.partition.ObjectRegistration;
import io.batchyard.queue.compaction.partition.PartitionStore;
import io.batchyard.queue.compaction.partition.SmallObjectStore;
import io.batchyard.queue.compaction.store.ObjectStore;
import org.jdbi.v3.core.Jdbi;

/**
 * The compaction components wired together, without a framework: the service builds one from its configuration
 * ({@link CompactionProducer}), and tests and the benchmark build their own with other settings or stores.
 */
public final class Compaction {

    public final Jdbi jdbi;
    public final ObjectStore store;
    public final MergeSettings settings;
    public final TableStore tables = new TableStore();
    public final PartitionStore partitions = new PartitionStore();
    public final SmallObjectStore objects = new SmallObjectStore();
    public final RangeStore ranges = new RangeStore();
    public final MergeJobQueue jobs;
    public final ObjectRegistration registration;
    public final CatalogSync catalog;
    public final GarbageCollector gc;

    public Compaction(Jdbi jdbi, ObjectStore store, MergeSettings settings, Outbox outbox) {
        this.jdbi = jdbi;
        this.store = store;
        this.settings = settings;
        this.jobs = new MergeJobQueue(jdbi);
        this.registration = new ObjectRegistration(store, tables, partitions, objects, jobs);
        this.catalog = new CatalogSync(jdbi, store, partitions, ranges, new CompactionEvents(outbox));
        this.gc = new GarbageCollector(jdbi, store, partitions, ranges, catalog);
    }

    public MergeWorker worker(String id) {
        return worker(id, settings, MergeHook.NONE);
    }

    public MergeWorker worker(String id, MergeSettings custom, MergeHook hook) {
        return new MergeWorker(id, jdbi, store, jobs, partitions, objects, ranges, custom, hook);
    }
}
