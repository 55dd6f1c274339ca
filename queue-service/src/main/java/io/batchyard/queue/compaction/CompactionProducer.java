package io.batchyard.queue.compaction;

import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.store.FileSystemObjectStore;
import io.batchyard.queue.compaction.store.ObjectStore;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;

/** The object store and the merge settings of the service, from {@link CompactionConfig}. */
public class CompactionProducer {

    @Produces
    @Singleton
    ObjectStore store(CompactionConfig config) {
        return new FileSystemObjectStore(Path.of(config.storeRoot()));
    }

    @Produces
    @Singleton
    MergeSettings settings(CompactionConfig config) {
        return new MergeSettings(config.mergedObjectSize(), config.mergeBatchSize(), config.heartbeatInterval(),
                config.jobTimeout(), config.recoverBatch(), config.maxAttempts(), config.retryBackoff());
    }
}
