package io.batchyard.queue.compaction.partition;

import io.batchyard.api.ApiException;
import io.batchyard.eventing.InvalidEventException;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.queue.ObjectCreated;
import io.batchyard.queue.compaction.Compaction;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jdbi.v3.core.Handle;

/**
 * Registers small objects announced on {@code batchyard.queue.objects}. Each event is applied once (ledger in the
 * same transaction); the registration itself is idempotent per object too, so a producer that re-announces an object
 * under a new event id changes nothing either. An object that cannot be routed (unknown table, missing file, bad key)
 * is quarantined in {@code unknown_object} and acknowledged, instead of being redelivered forever. A record that is
 * not an ObjectCreated is dead-lettered; a transient failure retries the same record.
 */
@ApplicationScoped
public class ObjectCreatedListener {

    private static final Logger LOG = Logger.getLogger(ObjectCreatedListener.class);
    static final String CONSUMER = "queue-compaction-objects";

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    Compaction compaction;

    @Inject
    RecordProcessor records;

    @Incoming("objects")
    @Blocking
    public CompletionStage<Void> consume(Message<SpecificRecord> record) {
        return records.process(CONSUMER, record, event -> {
            if (!(event instanceof ObjectCreated created)) {
                throw new InvalidEventException(event.getClass().getSimpleName() + " does not belong on the objects topic");
            }
            apply(created);
        });
    }

    /** Registers the object once; false for a duplicate delivery. */
    public boolean apply(ObjectCreated e) {
        return ledger.processOnce(CONSUMER, e, tx -> {
            try {
                compaction.registration.register(tx, e.getSchemaName(), e.getTableName(), e.getPartitionDate(),
                        e.getObjectKey());
            } catch (ApiException refused) {
                quarantine(tx, e, refused.title());
            }
        });
    }

    private static void quarantine(Handle tx, ObjectCreated e, String reason) {
        LOG.warnf("object %s for %s.%s quarantined: %s", e.getObjectKey(), e.getSchemaName(), e.getTableName(), reason);
        tx.createUpdate("""
                        INSERT INTO unknown_object (source_key, schema_name, table_name, reason) VALUES (:k, :s, :t, :r)
                        ON CONFLICT DO NOTHING""")
                .bind("k", e.getObjectKey()).bind("s", e.getSchemaName()).bind("t", e.getTableName()).bind("r", reason)
                .execute();
    }
}
