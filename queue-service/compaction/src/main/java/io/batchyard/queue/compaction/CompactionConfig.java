package io.batchyard.queue.compaction;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** {@code batchyard.compaction.*}: the compaction of small objects into merged ones. */
@ConfigMapping(prefix = "batchyard.compaction")
public interface CompactionConfig {

    /** Whether this instance runs merge workers and the periodic catalog step (tests drive workers themselves). */
    @WithDefault("true")
    boolean enabled();

    /** Merge workers in this instance; more instances add more, the database claim keeps them apart. */
    @WithDefault("2")
    int workers();

    /** Root directory of the object store (local or mounted). */
    @WithDefault("data/compaction")
    String storeRoot();

    /** The S3-compatible store a table may choose at registration ({@code store: {kind: s3, bucket, prefix}}). */
    S3 s3();

    /** {@code batchyard.compaction.s3.*}. */
    interface S3 {

        /** Whether tables may be placed in S3; off, registering a table with {@code kind: s3} is refused (328). */
        @WithDefault("false")
        boolean enabled();

        /** The store's URL (S3Proxy, MinIO, Ceph, …); unset: AWS S3 of {@link #region()}. */
        Optional<URI> endpoint();

        @WithDefault("us-east-1")
        String region();

        /** Static credentials; both unset: the SDK's default chain (environment, profile, container or instance role). */
        Optional<String> accessKeyId();

        Optional<String> secretAccessKey();

        /** Path-style URLs ({@code endpoint/bucket/key}), which most S3-compatible servers need; AWS prefers false. */
        @WithDefault("false")
        boolean pathStyle();

        /** Where an object being written is buffered before its upload; unset: the JVM's temporary directory. */
        Optional<String> bufferDir();

        /** Objects larger than this are uploaded in parts of this size (multipart upload); at least 5 MiB. */
        @WithDefault("67108864")
        long partSize();

        /**
         * The buckets tables may be placed in, as the deployment's operator allows them (comma-separated). A table
         * naming another bucket is refused (335), and the service does not use one outside the list. Unset: none.
         */
        Optional<List<String>> allowedBuckets();
    }

    /** Largest merged object planned, in bytes; a larger small object forms its own range. */
    @WithDefault("134217728")
    long mergedObjectSize();

    /**
     * Default acceptance window into the past, in days before today in the table's zone: an object for an older date
     * is refused (325). Unset: unbounded. A table's own value replaces it.
     */
    Optional<Integer> acceptancePastDays();

    /** Default acceptance window into the future, in days after today in the table's zone (325). Unset: unbounded. */
    Optional<Integer> acceptanceFutureDays();

    /**
     * Default mergeable-delay window, in days behind today (the window reaches one day ahead): only an arrival for a
     * partition inside it makes a merge job; one outside waits for the window to reach its partition, or, when the
     * partition is published and behind the window, is held as late until a rebuild. Unset: unbounded.
     */
    Optional<Integer> mergeableDelayDays();

    /** Most new small objects one merge run reads; the rest is carried over to an immediate follow-up. */
    @WithDefault("2000")
    int mergeBatchSize();

    /** How often a running merge refreshes its lease. */
    @WithDefault("PT60S")
    Duration heartbeatInterval();

    /** A lease not refreshed for this long is presumed dead and its job recovered by another worker. */
    @WithDefault("PT600S")
    Duration jobTimeout();

    /** Expired jobs recovered per claim attempt. */
    @WithDefault("100")
    int recoverBatch();

    /** Failed or expired runs of one job before it is dead-lettered (DEAD; revive with POST /compaction/jobs/{id}/retry). */
    @WithDefault("5")
    int maxAttempts();

    /** Delay before a run that failed with an error is retried. */
    @WithDefault("PT30S")
    Duration retryBackoff();

    /** Sleep of an idle worker between polls. */
    @WithDefault("PT3S")
    Duration idlePoll();

    /** Period of the catalog step (switch, close, publish) and of garbage collection. */
    @WithDefault("PT5M")
    Duration catalogInterval();

    /** Merged objects of partitions at least this many days old are garbage-collected by the periodic step. */
    @WithDefault("17")
    int gcAfterDays();
}
