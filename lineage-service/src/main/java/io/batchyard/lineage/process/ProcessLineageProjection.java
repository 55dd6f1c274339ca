package io.batchyard.lineage.process;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.schemas.Events;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.CompletionStage;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jdbi.v3.core.Handle;

/**
 * Process lineage from run and batch events: which run produced a batch (JobStarted/JobHalted target batch), where the
 * batch was offered (BatchEnqueued), and which run consumed it (BatchesArchived). Each event is applied once through
 * the ledger; every write is an upsert, because the two topics interleave in any order. A transient failure retries the
 * same record, so a database blip never leaves a run RUNNING that has ended.
 */
@ApplicationScoped
public class ProcessLineageProjection {

    static final String CONSUMER = "lineage-process";

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    RecordProcessor records;

    @Incoming("lifecycle")
    @Blocking
    public CompletionStage<Void> lifecycle(Message<SpecificRecord> record) {
        return records.process(CONSUMER, record, this::apply);
    }

    @Incoming("batches")
    @Blocking
    public CompletionStage<Void> batches(Message<SpecificRecord> record) {
        return records.process(CONSUMER, record, this::apply);
    }

    /** Applies one event; false for a duplicate delivery or an event that says nothing about lineage. */
    public boolean apply(SpecificRecord event) {
        if (!(event instanceof JobStarted || event instanceof JobHalted || event instanceof JobFailed
                || event instanceof StepStarted || event instanceof BatchEnqueued || event instanceof BatchesArchived)) {
            return false;
        }
        OffsetDateTime at = OffsetDateTime.ofInstant(Events.headerOf(event).getOccurredAt(), ZoneOffset.UTC);
        return ledger.processOnce(CONSUMER, event, tx -> {
            if (event instanceof JobStarted e) {
                run(tx, e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(), null, "RUNNING", at, null);
            } else if (event instanceof JobHalted e) {
                run(tx, e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(), e.getBatchMarking(), "SUCCESS",
                        null, at);
            } else if (event instanceof JobFailed e) {
                run(tx, e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(), null, "FAILED", null, at);
            } else if (event instanceof StepStarted e) {
                tx.createUpdate("""
                                INSERT INTO step_run (sub_instance_exec_id, sub_process_id, parent_process_id,
                                    parent_instance_exec_id, started_at)
                                VALUES (:sub, :subProcess, :parent, :parentRun, :at) ON CONFLICT DO NOTHING""")
                        .bind("sub", e.getSubInstanceExecId()).bind("subProcess", e.getSubProcessId())
                        .bind("parent", e.getParentProcessId()).bind("parentRun", e.getParentInstanceExecId())
                        .bind("at", at).execute();
            } else if (event instanceof BatchEnqueued e) {
                tx.createUpdate("""
                                INSERT INTO batch_enqueue (queue_id, source_batch_id, source_process_id,
                                    consumer_process_id, batch_marking, enqueued_at)
                                VALUES (:queue, :batch, :source, :consumer, :marking, :at) ON CONFLICT DO NOTHING""")
                        .bind("queue", e.getQueueId()).bind("batch", e.getSourceBatchId())
                        .bind("source", e.getSourceProcessId()).bind("consumer", e.getConsumerProcessId())
                        .bind("marking", e.getBatchMarking()).bind("at", at).execute();
            } else if (event instanceof BatchesArchived e) {
                for (Long source : e.getSourceBatchIds()) {
                    tx.createUpdate("""
                                    INSERT INTO batch_consumption (parent_process_id, target_batch_id, source_batch_id, archived_at)
                                    VALUES (:parent, :target, :source, :at) ON CONFLICT DO NOTHING""")
                            .bind("parent", e.getParentProcessId()).bind("target", e.getTargetBatchId())
                            .bind("source", source).bind("at", at).execute();
                }
            }
        });
    }

    /**
     * Upserts a run. A retried run (JobStarted again after JobFailed) is RUNNING again; the end time of an earlier
     * attempt is cleared, the first start kept.
     */
    private static void run(Handle tx, long run, long process, Long batch, String marking, String state,
                            OffsetDateTime started, OffsetDateTime ended) {
        tx.createUpdate("""
                        INSERT INTO process_run (instance_exec_id, process_id, target_batch_id, batch_marking, state,
                            started_at, ended_at)
                        VALUES (:run, :process, :batch, :marking, :state, :started, :ended)
                        ON CONFLICT (instance_exec_id) DO UPDATE
                        SET target_batch_id = COALESCE(EXCLUDED.target_batch_id, process_run.target_batch_id),
                            batch_marking = COALESCE(EXCLUDED.batch_marking, process_run.batch_marking),
                            state = EXCLUDED.state,
                            started_at = COALESCE(process_run.started_at, EXCLUDED.started_at),
                            ended_at = CASE WHEN EXCLUDED.state = 'RUNNING' THEN NULL ELSE EXCLUDED.ended_at END""")
                .bind("run", run).bind("process", process).bind("batch", batch).bind("marking", marking)
                .bind("state", state).bind("started", started).bind("ended", ended).execute();
    }
}
