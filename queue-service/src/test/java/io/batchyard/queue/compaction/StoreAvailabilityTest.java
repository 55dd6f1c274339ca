package io.batchyard.queue.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.batchyard.api.ApiException;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Code 328 without a second application boot: the service's own store selection ({@link CompactionProducer} over the
 * real {@code batchyard.compaction} mapping) with S3 off and on, and the rule the table and object registrations apply
 * to it. The integration tests run with S3 on, so they never see the refusal.
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
                () -> StoreAvailability.require(stores.s3Available(), s3, "table web.clicks"));
        assertThat(refused.code()).isEqualTo(328);
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.getMessage()).contains("web.clicks", "batchyard.compaction.s3.enabled=false");
        assertThatCode(() -> StoreAvailability.require(stores.s3Available(), StoreLocation.FILESYSTEM, "table web.clicks"))
                .as("the filesystem store is always there").doesNotThrowAnyException();
        // what the refusal spares a caller: the store selection itself has no store for the table
        assertThatThrownBy(() -> stores.of(s3)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTableInS3IsAcceptedWhenTheServiceHasAnS3Store() {
        // building the client contacts nobody: the endpoint is only used by the table's first store operation
        ObjectStores stores = stores(Map.of("batchyard.compaction.store-root", root.toString(),
                "batchyard.compaction.s3.enabled", "true", "batchyard.compaction.s3.endpoint", "http://127.0.0.1:9",
                "batchyard.compaction.s3.access-key-id", "k", "batchyard.compaction.s3.secret-access-key", "s",
                "batchyard.compaction.s3.buffer-dir", root.toString()));

        assertThat(stores.s3Available()).isTrue();
        assertThatCode(() -> StoreAvailability.require(stores.s3Available(), StoreLocation.s3("bucket", ""), "table web.clicks"))
                .doesNotThrowAnyException();
        assertThat(stores.of(StoreLocation.s3("bucket", "")).uri("a/b.jsonl").toString()).isEqualTo("s3://bucket/a/b.jsonl");
    }
}
