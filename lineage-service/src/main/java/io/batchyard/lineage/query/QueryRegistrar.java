package io.batchyard.lineage.query;

import io.batchyard.lineage.column.ColumnLineageExtractor;
import io.batchyard.lineage.column.QueryLineage;
import io.batchyard.eventing.Outbox;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.lineage.column.StatementLineage;
import io.batchyard.lineage.column.TableUse;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.lineage.graph.ColumnGraphWriter;
import io.batchyard.lineage.schema.TableSchemaStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jdbi.v3.core.Handle;

/**
 * Registers a query and parses it in the same transaction. Parsing is eager (the reference deferred it to the UI), and
 * a query that does not parse is still stored, with its error: lineage text is never lost, and a bad query never
 * fails its caller or the Kafka consumer.
 */
@ApplicationScoped
public class QueryRegistrar {

    private static final Logger LOG = Logger.getLogger(QueryRegistrar.class);
    private static final int MAX_WARNINGS = 50;
    private static final String PRODUCER = "lineage-service";

    @Inject
    QueryStore queries;

    @Inject
    TableSchemaStore schemas;

    @Inject
    ColumnGraphWriter graph;

    @Inject
    Outbox outbox;

    private final ColumnLineageExtractor extractor = new ColumnLineageExtractor();

    /**
     * Stores and parses the query, and appends LineageParsed to the outbox in the same transaction; an already
     * registered {@code queryId} returns the stored one unchanged (and emits nothing).
     *
     * @param correlationId the QueryRegistered event id when the query came from Kafka, else null
     */
    public StoredQuery register(Handle tx, NewQuery q, String via, String correlationId) {
        UUID id = q.queryId() == null ? UUID.randomUUID() : q.queryId();
        Optional<StoredQuery> existing = queries.find(tx, id);
        if (existing.isPresent()) {
            return existing.get();
        }
        String database = q.defaultDatabase() == null || q.defaultDatabase().isBlank()
                ? ColumnLineageExtractor.DEFAULT_DATABASE : q.defaultDatabase().strip().toLowerCase(Locale.ROOT);
        if (q.rejection() != null) {
            queries.insert(tx, id, q, database, StoredQuery.ParseStatus.FAILED, q.rejection(), List.of(), via);
            return announce(tx, id, q, correlationId, List.of());
        }
        if (q.type() == QueryType.PIG) {
            queries.insert(tx, id, q, database, StoredQuery.ParseStatus.UNSUPPORTED,
                    "Pig scripts are stored but not parsed for lineage", List.of(), via);
            return announce(tx, id, q, correlationId, List.of());
        }
        QueryLineage lineage;
        try {
            lineage = extractor.extract(q.text(), database, schemas.schemas(tx));
        } catch (RuntimeException | StackOverflowError e) {
            // The extractor reports parse errors itself; this is the last line of defence for the consumer.
            LOG.warnf("query %s could not be analysed: %s", id, e.toString());
            queries.insert(tx, id, q, database, StoredQuery.ParseStatus.FAILED,
                    "lineage analysis failed: " + e.getClass().getSimpleName(), List.of(), via);
            return announce(tx, id, q, correlationId, List.of());
        }
        List<String> warnings = lineage.warnings().stream().limit(MAX_WARNINGS).toList();
        StoredQuery.ParseStatus status = lineage.failed() ? StoredQuery.ParseStatus.FAILED : StoredQuery.ParseStatus.PARSED;
        queries.insert(tx, id, q, database, status, lineage.failed() ? lineage.errorSummary() : null, warnings, via);
        for (StatementLineage s : lineage.statements()) {
            if (s.parsed() && s.learnedTable() != null && !s.learnedColumns().isEmpty()) {
                schemas.put(tx, s.learnedTable(), s.learnedColumns(), "ddl");
            }
        }
        graph.write(tx, id, lineage);
        return announce(tx, id, q, correlationId, lineage.statements().stream()
                .flatMap(st -> st.tables().stream()).filter(t -> !t.temp()).toList());
    }

    private StoredQuery announce(Handle tx, UUID id, NewQuery q, String correlationId, List<TableUse> tables) {
        StoredQuery stored = queries.find(tx, id).orElseThrow();
        outbox.append(tx, Topics.LINEAGE_PARSED, q.processId(), LineageParsed.newBuilder()
                .setHeader(Events.header(PRODUCER, q.instanceExecId(), correlationId))
                .setQueryId(id.toString())
                .setProcessId(q.processId())
                .setParseStatus(stored.parseStatus().name())
                .setParseError(stored.parseError())
                .setInputTables(tables.stream().filter(t -> !t.output()).map(TableUse::name).distinct().toList())
                .setOutputTables(tables.stream().filter(TableUse::output).map(TableUse::name).distinct().toList())
                .setRelationCount((int) stored.relationCount())
                .build());
        return stored;
    }
}
