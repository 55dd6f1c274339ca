package io.batchyard.schemas;

import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.lineage.QueryRegistered;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.events.queue.FileRegistered;
import io.batchyard.events.queue.ManifestPublished;
import io.batchyard.events.queue.ObjectCreated;
import io.batchyard.events.queue.PartitionSwitched;
import io.batchyard.events.registry.ApplicationChanged;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificData;

/**
 * Every event type of the contract. Listed explicitly (no classpath scanning) so that a decoder can map the
 * writer-schema fingerprint of a single-object-encoded record to its generated class.
 */
public final class EventCatalog {

    public static final List<Class<? extends SpecificRecord>> EVENT_TYPES = List.of(
            ProcessRegistered.class, ProcessChanged.class, ProcessDeleted.class, ApplicationChanged.class,
            JobStarted.class, JobHalted.class, JobFailed.class,
            StepStarted.class, StepHalted.class, StepFailed.class,
            LifecycleCommand.class, CommandRejected.class,
            BatchEnqueued.class, BatchesArchived.class, FileRegistered.class,
            ObjectCreated.class, PartitionSwitched.class, ManifestPublished.class,
            QueryRegistered.class, LineageParsed.class);

    /** Today's fingerprint of each type, and the fingerprint it had in each released version of the contract. */
    private static final Map<Long, Class<? extends SpecificRecord>> BY_FINGERPRINT = fingerprints();

    private EventCatalog() {
    }

    private static Map<Long, Class<? extends SpecificRecord>> fingerprints() {
        Map<Long, Class<? extends SpecificRecord>> all = new HashMap<>();
        for (Class<? extends SpecificRecord> type : EVENT_TYPES) {
            all.put(fingerprint(type), type);
            for (Schema released : ReleasedSchemas.of(SpecificData.get().getSchema(type).getFullName())) {
                all.put(SchemaNormalization.parsingFingerprint64(released), type);
            }
        }
        return Map.copyOf(all);
    }

    public static Optional<Class<? extends SpecificRecord>> byFingerprint(long fingerprint) {
        return Optional.ofNullable(BY_FINGERPRINT.get(fingerprint));
    }

    /** CRC-64-AVRO fingerprint of the parsing canonical form, as used by single-object encoding. */
    public static long fingerprint(Class<? extends SpecificRecord> type) {
        return SchemaNormalization.parsingFingerprint64(SpecificData.get().getSchema(type));
    }

    /** Short name used in the {@code event-type} Kafka header, e.g. {@code JobHalted}. */
    public static String eventType(Class<?> type) {
        return type.getSimpleName();
    }
}
