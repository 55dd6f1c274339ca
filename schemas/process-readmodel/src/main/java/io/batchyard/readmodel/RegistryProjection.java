package io.batchyard.readmodel;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.schemas.Events;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jdbi.v3.core.Handle;

/**
 * Keeps {@code process_definition} in step with the registry. Idempotent (ledger) and order-safe: a row is only
 * overwritten by an event at least as recent as the one that wrote it. A transient failure retries the same record.
 */
@ApplicationScoped
public class RegistryProjection {

    private static final Logger LOG = Logger.getLogger(RegistryProjection.class);
    static final String CONSUMER = "process-readmodel";

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    RecordProcessor records;

    @Incoming("registry-processes")
    @Blocking
    public CompletionStage<Void> consume(Message<SpecificRecord> record) {
        return records.process(CONSUMER, record, this::apply);
    }

    /** Applies one registry event; also the entry point for tests and replays. */
    public boolean apply(SpecificRecord event) {
        return ledger.processOnce(CONSUMER, event, tx -> {
            Instant at = Events.headerOf(event).getOccurredAt();
            if (event instanceof ProcessRegistered e) {
                upsert(tx, e.getParent(), at);
                e.getSteps().forEach(s -> upsert(tx, s, at));
            } else if (event instanceof ProcessChanged e) {
                upsert(tx, e.getParent(), at);
                e.getSteps().forEach(s -> upsert(tx, s, at));
            } else if (event instanceof ProcessDeleted e) {
                tx.createUpdate("""
                                UPDATE process_definition SET deleted = true, source_occurred_at = :at
                                WHERE process_id = ANY(:ids) AND source_occurred_at <= :at""")
                        .bindArray("ids", Long.class, e.getDeletedProcessIds()).bind("at", Timestamp.from(at)).execute();
            } else {
                LOG.debugf("ignoring %s on the registry topic", event.getClass().getSimpleName());
            }
        });
    }

    private static void upsert(Handle tx, io.batchyard.events.ProcessDefinition d, Instant at) {
        List<ProcessDefinition.Property> properties = d.getProperties().stream()
                .map(p -> new ProcessDefinition.Property(p.getConfigGroup(), p.getKey(), p.getValue())).toList();
        tx.createUpdate("""
                        INSERT INTO process_definition (process_id, parent_process_id, process_name, process_type_id,
                          can_recover, enqueuing_process_ids, batch_cut_pattern, next_process_ids, deleted,
                          workflow_type_id, properties, source_occurred_at)
                        VALUES (:id, :parent, :name, :type, :canRecover, :enqueuers, :bcp, :next, :deleted, :workflow,
                          CAST(:properties AS jsonb), :at)
                        ON CONFLICT (process_id) DO UPDATE SET parent_process_id = EXCLUDED.parent_process_id,
                          process_name = EXCLUDED.process_name, process_type_id = EXCLUDED.process_type_id,
                          can_recover = EXCLUDED.can_recover, enqueuing_process_ids = EXCLUDED.enqueuing_process_ids,
                          batch_cut_pattern = EXCLUDED.batch_cut_pattern, next_process_ids = EXCLUDED.next_process_ids,
                          deleted = EXCLUDED.deleted, workflow_type_id = EXCLUDED.workflow_type_id,
                          properties = EXCLUDED.properties, source_occurred_at = EXCLUDED.source_occurred_at
                        WHERE process_definition.source_occurred_at <= EXCLUDED.source_occurred_at""")
                .bind("id", d.getProcessId())
                .bind("parent", d.getParentProcessId())
                .bind("name", d.getProcessName())
                .bind("type", d.getProcessTypeId())
                .bind("canRecover", d.getCanRecover())
                .bindArray("enqueuers", Long.class, d.getEnqueuingProcessIds())
                .bind("bcp", d.getBatchCutPattern() == null || d.getBatchCutPattern().isBlank() ? null : d.getBatchCutPattern())
                .bindArray("next", Long.class, d.getNextProcessIds())
                .bind("deleted", d.getDeleted())
                .bind("workflow", d.getWorkflowTypeId())
                .bind("properties", ProcessDefinitions.json(properties))
                .bind("at", Timestamp.from(at))
                .execute();
    }
}
