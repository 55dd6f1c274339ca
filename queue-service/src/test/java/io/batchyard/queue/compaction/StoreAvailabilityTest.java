package io.batchyard.queue.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.batchyard.api.ApiException;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.store.StoreAvailability;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Codes 328 and 335 without a second application boot: the service's own store selection ({@link CompactionProducer}
 * over the real {@code batchyard.compaction} mapping) with S3 off and on, with and without the bucket on the
 * deployment's allow-list, and the rule the table and object registrations apply to it. The integration tests run
 * with S3 on and their bucket allowed, so they never see the refusals.
 */
class StoreAvailabilityTest {

    @TempDir
    Path root;

    private ObjectStores stores(Map<String, String> properties) {
        CompactionConfig config = new SmallRyeConfigBuilder().withMapping(CompactionConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 500)).build()
                .getConfigMapping(CompactionConfig.class);
        return new CompactionProducer().stores(config);
    }

    @Test
    void aTableInS3IsRefusedWith328WhenTheServiceHasNoS3Store() {
        ObjectStores stores = stores(Map.of("batchyard.compaction.store-root", root.toString()));
        StoreLocation s3 = StoreLocation.s3("bucket", "tables/");

        assertThat(stores.s3Available()).as("S3 is off by default").isFalse();
        ApiException refused = catchThrowableOfType(ApiException.class,
                () -> StoreAvailability.require(stores, s3, "table web.clicks"));
        assertThat(refused.code()).isEqualTo(328);
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.getMessage()).contains("web.clicks", "batchyard.compaction.s3.enabled=false");
        assertThatCode(() -> StoreAvailability.require(stores, StoreLocation.FILESYSTEM, "table web.clicks"))
                .as("the filesystem store is always there").doesNotThrowAnyException();
        // what the refusal spares a caller: the store selection itself has no store for the table
        assertThatThrownBy(() -> stores.of(s3)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTableInS3IsAcceptedWhenTheServiceHasAnS3StoreAndTheDeploymentAllowsItsBucket() {
        // building the client contacts nobody: the endpoint is only used by the table's first store operation
        ObjectStores stores = stores(Map.of("batchyard.compaction.store-root", root.toString(),
                "batchyard.compaction.s3.enabled", "true", "batchyard.compaction.s3.endpoint", "http://127.0.0.1:9",
                "batchyard.compaction.s3.access-key-id", "k", "batchyard.compaction.s3.secret-access-key", "s",
                "batchyard.compaction.s3.buffer-dir", root.toString(),
                "batchyard.compaction.s3.allowed-buckets", "bucket,archive"));

        assertThat(stores.s3Available()).isTrue();
        assertThatCode(() -> StoreAvailability.require(stores, StoreLocation.s3("bucket", ""), "table web.clicks"))
                .doesNotThrowAnyException();
        assertThatCode(() -> StoreAvailability.require(stores, StoreLocation.s3("archive", "t/"), "table web.clicks"))
                .doesNotThrowAnyException();
        ApiException refused = catchThrowableOfType(ApiException.class,
                () -> StoreAvailability.require(stores, StoreLocation.s3("other-teams-bucket", ""), "table w.c"));
        assertThat(refused.code()).isEqualTo(335);
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.getMessage()).contains("other-teams-bucket", "batchyard.compaction.s3.allowed-buckets");
        assertThat(stores.of(StoreLocation.s3("bucket", "")).uri("a/b.jsonl").toString()).isEqualTo("s3://bucket/a/b.jsonl");
    }

    @Test
    void withoutAnAllowListNoBucketIsAllowed() {
        ObjectStores stores = stores(Map.of("batchyard.compaction.store-root", root.toString(),
                "batchyard.compaction.s3.enabled", "true", "batchyard.compaction.s3.endpoint", "http://127.0.0.1:9",
                "batchyard.compaction.s3.access-key-id", "k", "batchyard.compaction.s3.secret-access-key", "s",
                "batchyard.compaction.s3.buffer-dir", root.toString()));

        ApiException refused = catchThrowableOfType(ApiException.class,
                () -> StoreAvailability.require(stores, StoreLocation.s3("bucket", ""), "table web.clicks"));
        assertThat(refused.code()).isEqualTo(335);
    }
}
