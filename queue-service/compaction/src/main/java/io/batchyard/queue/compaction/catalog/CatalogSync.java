package io.batchyard.queue.compaction.catalog;

import io.batchyard.persistence.Blocking;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionState;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The catalog step, in the reference's order: switch, then close, then publish. A partition closed in one run therefore
 * switches at the earliest in the next. Each switch, close and publish is a transaction of its own
 * ({@link CatalogService}); manifests are written to the store on a worker thread before the version that names them
 * commits. Last, partitions whose objects waited for their table's mergeable window get their merge job once the
 * window reaches them ({@link MergeJobService#enqueueIfMergeable}, a transaction each): the window moves with the clock
 * and with the table's settings, and no arrival may come to make the job. Every step is convergent (conditional
 * updates, monotonic versions, deterministic manifest keys, one pending job per partition), so a failed run is simply
 * repeated by the next one.
 */
@ApplicationScoped
public class CatalogSync {

    private static final Logger LOG = Logger.getLogger(CatalogSync.class);

    /** Partition ids each step changed; {@code enqueued}: merge jobs made for partitions the window reached. */
    public record Summary(List<Long> switched, List<Long> closed, List<Long> published, List<Long> enqueued) {
    }

    /**
     * A published manifest as the API shows it. At version 0 the partition is published on its live prefix: there is
     * no manifest file, {@code manifest} is null and readers read every object under {@code location}.
     */
    public record PublishedManifest(long partitionId, long version, String location, Manifest manifest) {
    }

    /**
     * Where readers of a partition read now. {@code LIVE_PREFIX}: the small objects' folder, either before the first
     * publish ({@code version} null, {@code published} false) or as published at version 0; {@code MANIFEST}: the
     * manifest file of {@code version} (the upper bound of the partition's last merged range when it was published).
     */
    public record ReadLocation(long partitionId, PartitionState state, boolean published, Kind kind, Long version,
                               String location) {

        public enum Kind {
            LIVE_PREFIX, MANIFEST
        }
    }

    private final ObjectStores stores;
    private final CatalogService catalog;
    private final MergeJobService jobs;

    public CatalogSync(ObjectStores stores, CatalogService catalog, MergeJobService jobs) {
        this.stores = stores;
        this.catalog = catalog;
        this.jobs = jobs;
    }

    public Uni<Summary> run() {
        return catalog.switchReady().chain(switched -> catalog.dueForClose()
                .chain(due -> each(due, id -> catalog.close(id).map(Optional::isPresent)))
                .chain(closed -> catalog.toPublish().chain(ids -> each(ids, this::publish))
                        .chain(published -> jobs.partitionsWaiting()
                                .chain(waiting -> each(waiting, jobs::enqueueIfMergeable))
                                .map(enqueued -> new Summary(switched, closed, published, enqueued)))))
                .invoke(s -> {
                    if (!s.switched().isEmpty() || !s.closed().isEmpty() || !s.published().isEmpty()
                            || !s.enqueued().isEmpty()) {
                        LOG.infof("catalog sync: switched %s, closed %s, published %s, merge jobs for %s", s.switched(),
                                s.closed(), s.published(), s.enqueued());
                    }
                });
    }

    /** Closes one partition; empty when it has no live object yet (it stays open). */
    public Uni<Optional<Long>> close(long partitionId) {
        return catalog.close(partitionId);
    }

    /** Publishes one partition's location if it changed; false when there was nothing (yet) to publish. */
    Uni<Boolean> publish(long partitionId) {
        return catalog.partitionWithRanges(partitionId).map(Optional::orElseThrow).chain(read -> {
            Partition p = read.partition();
            if (p.state().allows(PartitionState.Step.PUBLISH_LIVE) && p.currentManifestVersion() < 0) {
                return catalog.publish(p, 0, liveLocation(p), 0, 0);
            }
            if (!p.state().allows(PartitionState.Step.PUBLISH_MANIFEST)
                    || p.currentManifestVersion() >= p.desiredManifestVersion()) {
                return Uni.createFrom().item(false);
            }
            List<MergeRange> merged = read.ranges();
            if (merged.isEmpty() || merged.get(merged.size() - 1).upperBound() != p.desiredManifestVersion()) {
                return Uni.createFrom().item(false); // a merge landed after we read the partition: the next run publishes it
            }
            long version = p.desiredManifestVersion();
            ObjectStore store = stores.of(p.store());
            Manifest manifest = new Manifest(merged.stream().map(r -> new Manifest.Entry(
                    store.uri(ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), r.lowerBound(), r.upperBound())).toString(),
                    new Manifest.Meta(r.contentLength()))).toList());
            String key = ObjectKeys.manifest(p.tablePrefix(), p.partitionDate(), version);
            return Blocking.blocking(() -> write(store, key, manifest)).chain(() -> catalog.publish(p, version,
                    store.uri(key).toString(), manifest.entries().size(), manifest.totalBytes()));
        });
    }

    /** Where readers of {@code p} read now; no store access (a location is a name, not a check). */
    public ReadLocation readLocation(Partition p) {
        long version = p.currentManifestVersion();
        if (version > 0) {
            return new ReadLocation(p.partitionId(), p.state(), true, ReadLocation.Kind.MANIFEST, version,
                    stores.of(p.store()).uri(ObjectKeys.manifest(p.tablePrefix(), p.partitionDate(), version)).toString());
        }
        return new ReadLocation(p.partitionId(), p.state(), version == 0, ReadLocation.Kind.LIVE_PREFIX,
                version == 0 ? 0L : null, liveLocation(p));
    }

    /** The published manifest, version 0 (the live prefix, no file) included; empty before the first publish. */
    public Uni<Optional<PublishedManifest>> published(Partition p) {
        if (p.currentManifestVersion() == 0) {
            return Uni.createFrom().item(Optional.of(new PublishedManifest(p.partitionId(), 0, liveLocation(p), null)));
        }
        return current(p);
    }

    private String liveLocation(Partition p) {
        return stores.of(p.store()).uri(ObjectKeys.liveFolder(p.tablePrefix(), p.partitionDate())).toString();
    }

    /** The manifest file readers currently use; empty before the partition's first manifest file (version > 0). */
    public Uni<Optional<PublishedManifest>> current(Partition p) {
        if (p.currentManifestVersion() <= 0) {
            return Uni.createFrom().item(Optional.empty());
        }
        String key = ObjectKeys.manifest(p.tablePrefix(), p.partitionDate(), p.currentManifestVersion());
        ObjectStore store = stores.of(p.store());
        return Blocking.blocking(() -> {
            try (InputStream in = store.open(key)) {
                return Optional.of(new PublishedManifest(p.partitionId(), p.currentManifestVersion(),
                        store.uri(key).toString(), Manifest.fromJson(in.readAllBytes())));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + key, e);
            }
        });
    }

    private static Void write(ObjectStore store, String key, Manifest manifest) {
        try (ObjectStore.PendingObject out = store.create(key)) {
            out.stream().write(manifest.toJson());
            out.commit();
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + key, e);
        }
    }

    /** Runs {@code step} on each id in turn; the ids it reports a change for. */
    private static Uni<List<Long>> each(List<Long> ids, Function<Long, Uni<Boolean>> step) {
        return InOrder.map(ids, id -> step.apply(id).map(done -> done ? Optional.of(id) : Optional.<Long>empty()))
                .map(results -> results.stream().flatMap(Optional::stream).toList());
    }
}
