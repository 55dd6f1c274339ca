package io.batchyard.schemas;

import java.util.List;

/** Kafka topics of the Batchyard contract; schemas/README.md documents key and events of each. */
public final class Topics {
    /** ProcessRegistered, ProcessChanged, ProcessDeleted; key = parent process id. */
    public static final String REGISTRY_PROCESSES = "batchyard.registry.processes";
    /** JobStarted, JobHalted, JobFailed, StepStarted, StepHalted, StepFailed; key = parent process id. */
    public static final String EXECUTION_LIFECYCLE = "batchyard.execution.lifecycle";
    /** LifecycleCommand from external producers; key = process id named by the command. */
    public static final String EXECUTION_COMMANDS = "batchyard.execution.commands";
    /** CommandRejected; key = process id named by the rejected command. */
    public static final String EXECUTION_REJECTIONS = "batchyard.execution.rejections";
    /** DeploymentChanged, one per deployment state change; key = parent process id. */
    public static final String EXECUTION_DEPLOYMENTS = "batchyard.execution.deployments";
    /** BackfillStarted, BackfillProgress, BackfillFinished; key = backfill id. */
    public static final String EXECUTION_BACKFILLS = "batchyard.execution.backfills";
    /** DeadlineChanged, one per state change of a bucket's data deadline; key = parent process id. */
    public static final String EXECUTION_DEADLINES = "batchyard.execution.deadlines";
    /** BatchEnqueued (key = consuming process id), BatchesArchived (key = parent process id). */
    public static final String QUEUE_BATCHES = "batchyard.queue.batches";
    /** FileRegistered; key = batch id. */
    public static final String QUEUE_FILES = "batchyard.queue.files";
    /** ObjectCreated from producers of small objects; key = schemaName.tableName. */
    public static final String QUEUE_OBJECTS = "batchyard.queue.objects";
    /** PartitionSwitched, ManifestPublished; key = compaction table id. */
    public static final String QUEUE_COMPACTION = "batchyard.queue.compaction";
    /** QueryRegistered from running steps; key = process id. */
    public static final String LINEAGE_QUERIES = "batchyard.lineage.queries";
    /** LineageParsed from lineage-service; key = process id. */
    public static final String LINEAGE_PARSED = "batchyard.lineage.parsed";
    /** OpenLineageRunEvent from lineage-service to its own OpenLineage delivery; key = OpenLineage run id. */
    public static final String LINEAGE_OPENLINEAGE = "batchyard.lineage.openlineage";

    public static final List<String> ALL = List.of(
            REGISTRY_PROCESSES, EXECUTION_LIFECYCLE, EXECUTION_COMMANDS, EXECUTION_REJECTIONS, EXECUTION_DEPLOYMENTS,
            EXECUTION_BACKFILLS,
            QUEUE_BATCHES,             QUEUE_FILES, QUEUE_OBJECTS, QUEUE_COMPACTION, LINEAGE_QUERIES, LINEAGE_PARSED,
            LINEAGE_OPENLINEAGE, EXECUTION_DEADLINES);

    private Topics() {
    }
}
