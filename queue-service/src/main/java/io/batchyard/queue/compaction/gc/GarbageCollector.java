package io.batchyard.queue.compaction.gc;

import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.RangeStore;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionStore;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * Deletes merged objects that a wider object with the same lower bound superseded (spec A.10). "In use" is the union
 * of the database's ranges and the entries of the currently published manifest: until the catalog publishes a new
 * manifest, readers still open the narrower object it lists, so that one is kept. Objects whose lower bound is not in
 * use are kept (conservative), and small objects are never touched.
 */
public final class GarbageCollector {

    private final Jdbi jdbi;
    private final ObjectStore store;
    private final PartitionStore partitions;
    private final RangeStore ranges;
    private final CatalogSync catalog;

    public GarbageCollector(Jdbi jdbi, ObjectStore store, PartitionStore partitions, RangeStore ranges, CatalogSync catalog) {
        this.jdbi = jdbi;
        this.store = store;
        this.partitions = partitions;
        this.ranges = ranges;
        this.catalog = catalog;
    }

    /** @return the keys deleted */
    public List<String> collect(Partition p) {
        Set<String> inUse = new HashSet<>();
        Map<Long, Long> widest = new HashMap<>(); // lower bound -> largest upper bound in use
        for (MergeRange r : jdbi.withHandle(h -> ranges.ranges(h, p.partitionId()))) {
            use(ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), r.lowerBound(), r.upperBound()), inUse, widest);
        }
        catalog.current(p).ifPresent(m -> m.manifest().entries().forEach(e -> {
            String url = e.url();
            use(ObjectKeys.mergedFolder(p.tablePrefix(), p.partitionDate()) + url.substring(url.lastIndexOf('/') + 1),
                    inUse, widest);
        }));
        List<String> deleted = new ArrayList<>();
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

    /** Collects every partition dated on or before {@code date} (the reference waits about 17 days). */
    public int collectUpTo(java.time.LocalDate date) {
        int deleted = 0;
        for (long id : jdbi.withHandle(h -> partitions.olderThan(h, date))) {
            Partition p = jdbi.withHandle(h -> partitions.find(h, id)).orElseThrow();
            deleted += collect(p).size();
        }
        return deleted;
    }
}
