package io.batchyard.lineage.query;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.lineage.QueryRegistered;
import io.batchyard.schemas.Events;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * QueryRegistered from {@code batchyard.lineage.queries}. Registration and the ledger entry share one transaction, so a
 * redelivered event registers nothing twice. A query that does not parse is a stored result, not a consumer failure;
 * only an undecodable record goes to the dead-letter topic. A transient failure retries the same record.
 */
@ApplicationScoped
public class QueryConsumer {

    private static final Logger LOG = Logger.getLogger(QueryConsumer.class);
    static final String CONSUMER = "lineage-queries";

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    QueryRegistrar registrar;

    @Inject
    RecordProcessor records;

    @Incoming("queries")
    @Blocking
    public CompletionStage<Void> consume(Message<SpecificRecord> record) {
        return records.process(CONSUMER, record, this::apply);
    }

    private void apply(SpecificRecord event) {
        if (!(event instanceof QueryRegistered q)) {
            LOG.debugf("ignoring %s on the queries topic", event.getClass().getSimpleName());
            return;
        }
        NewQuery query = toNewQuery(q);
        TransientRetry.run(() -> ledger.processOnce(CONSUMER, q, tx -> registrar.register(tx, query, "kafka",
                Events.headerOf(q).getEventId())));
    }

    /** Semantic problems (unknown type, bad id) are stored as a failed query rather than dead-lettered. */
    static NewQuery toNewQuery(QueryRegistered q) {
        QueryType type;
        String rejection = null;
        try {
            type = QueryType.valueOf(q.getQueryType().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            // Stored (the text is not lost) but not parsed: nobody said it is SQL.
            type = QueryType.SQL;
            rejection = "unknown query type '" + abbreviate(q.getQueryType()) + "' (HIVE, SQL or PIG): stored, not parsed";
        }
        UUID id = null;
        if (q.getQueryId() != null) {
            try {
                id = UUID.fromString(q.getQueryId());
            } catch (IllegalArgumentException e) {
                // A producer's malformed id must not lose the query: derive a stable one from it instead.
                id = UUID.nameUUIDFromBytes(q.getQueryId().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        String text = q.getQueryText().isBlank() ? "(empty)" : q.getQueryText();
        return new NewQuery(id, type, text, Math.max(0, q.getProcessId()), q.getInstanceExecId() != null
                && q.getInstanceExecId() > 0 ? q.getInstanceExecId() : null, q.getDefaultDatabase(), rejection);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
