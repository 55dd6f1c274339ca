package io.batchyard.queue.compaction.gc;

import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.Blocking;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.compaction.catalog.CatalogService;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.RangeService;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionService;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Deletes merged objects that a wider object with the same lower bound superseded. "In use" is the union of the
 * database's ranges and the entries of the currently published manifest: until the catalog publishes a new manifest,
 * readers still open the narrower object it lists, so that one is kept. Objects whose lower bound is not in use are
 * kept (conservative), and small objects are never touched. The store is listed and pruned on a worker thread.
 */
@ApplicationScoped
public class GarbageCollector {

    private final ObjectStores stores;
    private final PartitionService partitions;
    private final RangeService ranges;
    private final CatalogSync catalog;
    private final CatalogService catalogReads;

    public GarbageCollector(ObjectStores stores, PartitionService partitions, RangeService ranges, CatalogSync catalog,
                            CatalogService catalogReads) {
        this.stores = stores;
        this.partitions = partitions;
        this.ranges = ranges;
        this.catalog = catalog;
        this.catalogReads = catalogReads;
    }

    /** @return the keys deleted */
    public Uni<List<String>> collect(Partition p) {
        return ranges.ranges(p.partitionId()).chain(merged -> collect(p, merged));
    }

    /**
     * Collects a partition for {@code caller}: execute permission on its table's application, checked in the session
     * that reads the ranges the collection keeps (314 when the caller may not read the partition).
     *
     * @return the keys deleted
     */
    public Uni<List<String>> collect(Caller caller, long partitionId) {
        return catalogReads.partitionWithRanges(caller, partitionId, Permission.EXECUTE)
                .chain(read -> collect(read.partition(), read.ranges()));
    }

    private Uni<List<String>> collect(Partition p, List<MergeRange> merged) {
        return catalog.current(p).chain(published -> Blocking.blocking(() -> prune(p, merged, published)));
    }

    /** Collects every partition dated on or before {@code date} (the reference waits about 17 days). */
    public Uni<Integer> collectUpTo(LocalDate date) {
        return partitions.olderThan(date)
                .chain(ids -> InOrder.map(ids,
                        id -> partitions.find(id).map(Optional::orElseThrow).chain(this::collect)))
                .map(deleted -> deleted.stream().mapToInt(List::size).sum());
    }

    private List<String> prune(Partition p, List<MergeRange> merged, Optional<CatalogSync.PublishedManifest> published) {
        Set<String> inUse = new HashSet<>();
        Map<Long, Long> widest = new HashMap<>(); // lower bound -> largest upper bound in use
        for (MergeRange r : merged) {
            use(ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), r.lowerBound(), r.upperBound()), inUse, widest);
        }
        published.ifPresent(m -> m.manifest().entries().forEach(e -> {
            String url = e.url();
            use(ObjectKeys.mergedFolder(p.tablePrefix(), p.partitionDate()) + url.substring(url.lastIndexOf('/') + 1),
                    inUse, widest);
        }));
        List<String> deleted = new ArrayList<>();
        ObjectStore store = stores.of(p.store());
        try {
            for (String key : store.list(ObjectKeys.mergedFolder(p.tablePrefix(), p.partitionDate()))) {
                Optional<ObjectKeys.PartBounds> b = ObjectKeys.partBounds(key);
                if (b.isEmpty() || inUse.contains(key)) {
                    continue;
                }
                Long upperInUse = widest.get(b.get().lower());
                if (upperInUse != null && upperInUse > b.get().upper()) {
                    store.delete(key);
                    deleted.add(key);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("garbage collection of partition " + p.partitionId() + " failed", e);
        }
        return deleted;
    }

    private static void use(String key, Set<String> inUse, Map<Long, Long> widest) {
        inUse.add(key);
        ObjectKeys.partBounds(key).ifPresent(b -> widest.merge(b.lower(), b.upper(), Math::max));
    }
}
