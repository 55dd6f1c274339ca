package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.partition.PartitionState;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The in-service worker pool and catalog loop, as configured by {@code batchyard.compaction.*}. */
@QueueTest
@TestProfile(WorkerPoolTest.Enabled.class)
class WorkerPoolTest {

    public static class Enabled implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("batchyard.compaction.enabled", "true", "batchyard.compaction.workers", "2",
                    "batchyard.compaction.idle-poll", "PT0.1S", "batchyard.compaction.catalog-interval", "PT0.5S");
        }
    }

    @Inject
    Compaction compaction;

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theServiceMergesAndPublishesOnItsOwn(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(12, 30, 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> f.partition(partition).desiredManifestVersion() > 0
                && await(() -> compaction.jobs.count(null, partition)) == 0);
        f.assertMergedExactlyOnce(partition);
        await().atMost(Duration.ofSeconds(30)).until(() -> f.partition(partition).state() == PartitionState.LIVE);
        given().post("/compaction/partitions/" + partition + "/close").then().statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> f.partition(partition).currentManifestVersion()
                == f.partition(partition).desiredManifestVersion());
        assertThat(f.partition(partition).state()).isEqualTo(PartitionState.SWITCHED);
    }
}
