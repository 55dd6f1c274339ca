package io.batchyard.queue.compaction;

import io.batchyard.eventing.Outbox;
import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.store.FileSystemObjectStore;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import org.jdbi.v3.core.Jdbi;

/** Builds the service's {@link Compaction} from {@link CompactionConfig}. */
public class CompactionProducer {

    @Produces
    @Singleton
    Compaction compaction(Jdbi jdbi, Outbox outbox, CompactionConfig config) {
        MergeSettings settings = new MergeSettings(config.mergedObjectSize(), config.mergeBatchSize(),
                config.heartbeatInterval(), config.jobTimeout(), config.recoverBatch(), config.maxAttempts(),
                config.retryBackoff());
        return new Compaction(jdbi, new FileSystemObjectStore(Path.of(config.storeRoot())), settings, outbox);
    }
}
