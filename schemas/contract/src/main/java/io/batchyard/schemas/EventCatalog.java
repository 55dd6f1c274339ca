package io.batchyard.schemas;

import io.batchyard.events.execution.BackfillFinished;
import io.batchyard.events.execution.BackfillProgress;
import io.batchyard.events.execution.BackfillStarted;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.DeadlineChanged;
import io.batchyard.events.execution.DeploymentChanged;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.lineage.OpenLineageRunEvent;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificData;

/**
 * Every event type of the contract. Listed explicitly (no classpath scanning) so that a decoder can map a record's
 * writer schema (or its {@code event-type} header) to the generated class it is read into.
 */
public final class EventCatalog {

    public static final List<Class<? extends SpecificRecord>> EVENT_TYPES = List.of(
            ProcessRegistered.class, ProcessChanged.class, ProcessDeleted.class, ApplicationChanged.class,
            JobStarted.class, JobHalted.class, JobFailed.class,
            StepStarted.class, StepHalted.class, StepFailed.class,
            LifecycleCommand.class, CommandRejected.class, DeploymentChanged.class, DeadlineChanged.class,
            BackfillStarted.class, BackfillProgress.class, BackfillFinished.class,
            BatchEnqueued.class, BatchesArchived.class, FileRegistered.class,
            ObjectCreated.class, PartitionSwitched.class, ManifestPublished.class,
            QueryRegistered.class, LineageParsed.class, OpenLineageRunEvent.class);

    private static final Map<String, Class<? extends SpecificRecord>> BY_NAME = new HashMap<>();
    private static final Map<String, Class<? extends SpecificRecord>> BY_FULL_NAME = new HashMap<>();

    static {
        for (Class<? extends SpecificRecord> type : EVENT_TYPES) {
            BY_NAME.put(eventType(type), type);
            BY_FULL_NAME.put(SpecificData.get().getSchema(type).getFullName(), type);
        }
    }

    private EventCatalog() {
    }

    /** The type an {@code event-type} header names, e.g. {@code JobHalted}. */
    public static Optional<Class<? extends SpecificRecord>> byName(String eventType) {
        return Optional.ofNullable(BY_NAME.get(eventType));
    }

    /** The type a schema's full name names, e.g. {@code io.batchyard.events.execution.JobHalted}. */
    public static Optional<Class<? extends SpecificRecord>> byFullName(String fullName) {
        return Optional.ofNullable(BY_FULL_NAME.get(fullName));
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
