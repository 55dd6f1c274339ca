package io.batchyard.queue.compaction;

import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.gc.GarbageCollector;
import io.batchyard.queue.compaction.merge.MergeHook;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.merge.MergeMeters;
import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.merge.MergeWorker;
import io.batchyard.queue.compaction.merge.RangeService;
import io.batchyard.queue.compaction.partition.PartitionService;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.table.TableService;
import jakarta.inject.Singleton;

/**
 * The compaction components in one place: the worker pool builds its merge workers here, and tests build workers with
 * other settings or fault-injecting hooks.
 */
@Singleton
public class Compaction {

    public final ObjectStores stores;
    public final MergeSettings settings;
    public final TableService tables;
    public final PartitionService partitions;
    public final RangeService ranges;
    public final MergeJobService jobs;
    public final ObjectRegistrationService registration;
    public final CatalogSync catalog;
    public final GarbageCollector gc;
    public final MergeMeters meters;

    public Compaction(ObjectStores stores, MergeSettings settings, TableService tables, PartitionService partitions,
                      RangeService ranges, MergeJobService jobs, ObjectRegistrationService registration,
                      CatalogSync catalog, GarbageCollector gc, MergeMeters meters) {
        this.stores = stores;
        this.settings = settings;
        this.tables = tables;
        this.partitions = partitions;
        this.ranges = ranges;
        this.jobs = jobs;
        this.registration = registration;
        this.catalog = catalog;
        this.gc = gc;
        this.meters = meters;
    }

    public MergeWorker worker(String id) {
        return worker(id, settings, MergeHook.NONE);
    }

    public MergeWorker worker(String id, MergeSettings custom, MergeHook hook) {
        return new MergeWorker(id, stores, jobs, custom, hook, meters);
    }
}
