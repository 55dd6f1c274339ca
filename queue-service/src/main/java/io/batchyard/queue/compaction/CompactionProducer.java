package io.batchyard.queue.compaction;

import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.store.FileSystemObjectStore;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.table.TableSettings;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The object store and the merge settings of the service, from {@link CompactionConfig}. */
public class CompactionProducer {

    @Produces
    @Singleton
    ObjectStore store(CompactionConfig config) {
        return new FileSystemObjectStore(Path.of(config.storeRoot()));
    }

    /** Each table's settings fall back to these where it has no value of its own. */
    @Produces
    @Singleton
    TableSettings.Defaults tableDefaults(CompactionConfig config) {
        for (Optional<Integer> days : List.of(config.acceptancePastDays(), config.acceptanceFutureDays(),
                config.mergeableDelayDays())) {
            if (days.filter(d -> d < 0).isPresent()) {
                throw new IllegalArgumentException("compaction: acceptance and mergeable-delay windows cannot be negative");
            }
        }
        return new TableSettings.Defaults(config.mergedObjectSize(), config.acceptancePastDays().orElse(null),
                config.acceptanceFutureDays().orElse(null), config.mergeableDelayDays().orElse(null));
    }

    @Produces
    @Singleton
    MergeSettings settings(CompactionConfig config) {
        return new MergeSettings(config.mergedObjectSize(), config.mergeBatchSize(), config.heartbeatInterval(),
                config.jobTimeout(), config.recoverBatch(), config.maxAttempts(), config.retryBackoff());
    }
}
