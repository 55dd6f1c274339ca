package io.batchyard.lineage.query;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * QueryRegistered from {@code batchyard.lineage.queries}, applied by {@link QueryService#apply}. A query that does not
 * parse is a stored result, not a consumer failure; only an undecodable record goes to the dead-letter topic. A
 * transient failure retries the same record.
 */
@ApplicationScoped
public class QueryConsumer {

    private final QueryService queries;
    private final RecordProcessor records;

    public QueryConsumer(QueryService queries, RecordProcessor records) {
        this.queries = queries;
        this.records = records;
    }

    /** A registration that lost a race is run again at once ({@link TransientRetry}) before the record counts as failed. */
    @Incoming("queries")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(QueryService.CONSUMER, record, event -> TransientRetry.run(() -> queries.apply(event)));
    }
}
