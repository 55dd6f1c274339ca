package io.batchyard.queue.compaction.catalog;

import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.RangeStore;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionState;
import io.batchyard.queue.compaction.partition.PartitionStore;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jboss.logging.Logger;

/**
 * The catalog step (spec A.9), in the reference's order: switch, then close, then publish. A partition closed in one
 * run therefore switches at the earliest in the next. Every step is convergent (conditional updates, monotonic
 * versions, deterministic manifest keys), so a failed run is simply repeated by the next one.
 */
public final class CatalogSync {

    private static final Logger LOG = Logger.getLogger(CatalogSync.class);

    /** Partition ids each step changed. */
    public record Summary(List<Long> switched, List<Long> closed, List<Long> published) {
    }

    /** A published manifest as the API shows it. */
    public record PublishedManifest(long partitionId, long version, String location, Manifest manifest) {
    }

    private final Jdbi jdbi;
    private final ObjectStore store;
    private final PartitionStore partitions;
    private final RangeStore ranges;
    private final CompactionEvents events;

    public CatalogSync(Jdbi jdbi, ObjectStore store, PartitionStore partitions, RangeStore ranges, CompactionEvents events) {
        this.jdbi = jdbi;
        this.store = store;
        this.partitions = partitions;
        this.ranges = ranges;
        this.events = events;
    }

    public Summary run() {
        List<Long> switched = jdbi.inTransaction(tx -> {
            List<Long> ids = new ArrayList<>();
            for (Partition p : partitions.switchReady(tx)) {
                long upper = ranges.openRange(tx, p.partitionId()).map(MergeRange::upperBound).orElseThrow();
                events.switched(tx, p, upper);
                ids.add(p.partitionId());
            }
            return ids;
        });
        List<Long> closed = new ArrayList<>();
        for (long id : jdbi.withHandle(partitions::dueForClose)) {
            close(id).ifPresent(lastLive -> closed.add(id));
        }
        List<Long> published = new ArrayList<>();
        for (long id : jdbi.withHandle(partitions::toPublish)) {
            if (publish(id)) {
                published.add(id);
            }
        }
        if (!switched.isEmpty() || !closed.isEmpty() || !published.isEmpty()) {
            LOG.infof("catalog sync: switched %s, closed %s, published %s", switched, closed, published);
        }
        return new Summary(switched, closed, published);
    }

    /** Closes one partition; empty when it has no live object yet (it stays open). */
    public Optional<Long> close(long partitionId) {
        return jdbi.inTransaction(tx -> partitions.close(tx, partitionId));
    }

    /** Publishes one partition's location if it changed; false when there was nothing (yet) to publish. */
    boolean publish(long partitionId) {
        Partition p = jdbi.withHandle(h -> partitions.find(h, partitionId)).orElseThrow();
        if (p.state().allows(PartitionState.Step.PUBLISH_LIVE) && p.currentManifestVersion() < 0) {
            String live = store.uri(ObjectKeys.liveFolder(p.tablePrefix(), p.partitionDate())).toString();
            return jdbi.inTransaction(tx -> {
                boolean moved = partitions.publish(tx, partitionId, p.currentManifestVersion(), 0);
                if (moved) {
                    events.published(tx, p, 0, live, 0, 0);
                }
                return moved;
            });
        }
        if (!p.state().allows(PartitionState.Step.PUBLISH_MANIFEST) || p.currentManifestVersion() >= p.desiredManifestVersion()) {
            return false;
        }
        List<MergeRange> merged = jdbi.withHandle(h -> ranges.ranges(h, partitionId));
        if (merged.isEmpty() || merged.get(merged.size() - 1).upperBound() != p.desiredManifestVersion()) {
            return false; // a merge landed after we read the partition: the next run publishes it
        }
        long version = p.desiredManifestVersion();
        Manifest manifest = new Manifest(merged.stream().map(r -> new Manifest.Entry(
                store.uri(ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), r.lowerBound(), r.upperBound())).toString(),
                new Manifest.Meta(r.contentLength()))).toList());
        String key = ObjectKeys.manifest(p.tablePrefix(), p.partitionDate(), version);
        try (ObjectStore.PendingObject out = store.create(key)) {
            out.stream().write(manifest.toJson());
            out.commit();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + key, e);
        }
        return jdbi.inTransaction(tx -> {
            boolean moved = partitions.publish(tx, partitionId, p.currentManifestVersion(), version);
            if (moved) {
                events.published(tx, p, version, store.uri(key).toString(), manifest.entries().size(), manifest.totalBytes());
            }
            return moved;
        });
    }

    /** The manifest readers currently use; empty before the partition's first manifest. */
    public Optional<PublishedManifest> current(Partition p) {
        if (p.currentManifestVersion() <= 0) {
            return Optional.empty();
        }
        String key = ObjectKeys.manifest(p.tablePrefix(), p.partitionDate(), p.currentManifestVersion());
        try (InputStream in = store.open(key)) {
            return Optional.of(new PublishedManifest(p.partitionId(), p.currentManifestVersion(), store.uri(key).toString(),
                    Manifest.fromJson(in.readAllBytes())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key, e);
        }
    }
}
