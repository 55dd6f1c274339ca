package io.batchyard.queue.compaction.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The store of each table: the service's filesystem store, or a view of the S3-compatible store (one client for the
 * service) on the table's bucket and prefix. Views are made on first use and kept: they hold no state of their own.
 */
public final class ObjectStores {

    private final ObjectStore filesystem;
    private final Optional<BiFunction<String, String, ObjectStore>> s3;
    private final Set<String> allowedBuckets;
    private final Map<StoreLocation, ObjectStore> views = new ConcurrentHashMap<>();

    /**
     * @param s3             makes the store of a bucket and prefix; empty when no S3 endpoint is configured
     * @param allowedBuckets the buckets tables may use (the deployment's allow-list)
     */
    public ObjectStores(ObjectStore filesystem, Optional<BiFunction<String, String, ObjectStore>> s3,
                        List<String> allowedBuckets) {
        this.filesystem = filesystem;
        this.s3 = s3;
        this.allowedBuckets = Set.copyOf(allowedBuckets);
    }

    public ObjectStore filesystem() {
        return filesystem;
    }

    /** Whether tables can be placed in S3 (an endpoint or region is configured). */
    public boolean s3Available() {
        return s3.isPresent();
    }

    /**
     * Whether the deployment allows tables in this bucket: checked where a table is registered and where objects
     * enter it (StoreAvailability), so the service takes nothing from, and places nothing in, another bucket.
     */
    public boolean bucketAllowed(String bucket) {
        return allowedBuckets.contains(bucket);
    }

    public ObjectStore of(StoreLocation location) {
        if (location.kind() == StoreLocation.Kind.FILESYSTEM) {
            return filesystem;
        }
        return views.computeIfAbsent(location, l -> s3.orElseThrow(() -> new IllegalStateException(
                "table store " + l + " needs batchyard.compaction.s3.* to be configured")).apply(l.bucket(), l.prefix()));
    }

    @Override
    public String toString() {
        return filesystem + (s3.isPresent() ? " and S3" : "");
    }
}
