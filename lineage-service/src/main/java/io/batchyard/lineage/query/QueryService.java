package io.batchyard.lineage.query;

import static io.batchyard.api.CommonErrors.CONFLICT;
import static io.batchyard.lineage.LineageError.UNKNOWN_PROCESS;
import static io.batchyard.lineage.LineageError.UNKNOWN_QUERY;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.eventing.Outbox;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.lineage.QueryRegistered;
import io.batchyard.lineage.access.ProcessAccess;
import io.batchyard.lineage.column.ColumnLineageExtractor;
import io.batchyard.lineage.column.QueryLineage;
import io.batchyard.lineage.column.StatementLineage;
import io.batchyard.lineage.column.TableSchemas;
import io.batchyard.lineage.column.TableUse;
import io.batchyard.lineage.graph.ColumnGraphWriter;
import io.batchyard.lineage.schema.TableSchemaService;
import io.batchyard.persistence.Blocking;
import io.batchyard.persistence.InOrder;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.jboss.logging.Logger;

/**
 * Registers a query and parses it in the same transaction. Parsing is eager (the reference deferred it to the UI), and
 * a query that does not parse is still stored, with its error: lineage text is never lost, and a bad query never
 * fails its caller or the Kafka consumer.
 *
 * <p>Every newly stored query is counted by its parse status ({@code batchyard.lineage.parse}, outcome {@code parsed},
 * {@code failed} or {@code unsupported}), in its registration's transaction: a registration retried after losing a
 * race ({@link TransientRetry}) is parsed, and counted, again. A {@code queryId} registered before is not parsed again
 * and not counted.
 */
@ApplicationScoped
public class QueryService {

    /** Ledger name of the queries consumer. */
    public static final String CONSUMER = "lineage-queries";

    private static final Logger LOG = Logger.getLogger(QueryService.class);
    private static final int MAX_WARNINGS = 50;
    private static final String PRODUCER = "lineage-service";
    public static final String PARSES = "batchyard.lineage.parse";

    private final QueryRepository queries;
    private final TableSchemaService schemas;
    private final ColumnGraphWriter graph;
    private final Outbox outbox;
    private final ProcessedEventLedger ledger;
    private final ProcessAccess access;
    private final ColumnLineageExtractor extractor = new ColumnLineageExtractor();
    private final Map<StoredQuery.ParseStatus, Counter> parses = new EnumMap<>(StoredQuery.ParseStatus.class);

    public QueryService(QueryRepository queries, TableSchemaService schemas, ColumnGraphWriter graph, Outbox outbox,
                        ProcessedEventLedger ledger, ProcessAccess access, MeterRegistry meters) {
        this.queries = queries;
        this.access = access;
        this.schemas = schemas;
        this.graph = graph;
        this.outbox = outbox;
        this.ledger = ledger;
        for (StoredQuery.ParseStatus status : StoredQuery.ParseStatus.values()) {
            parses.put(status, Counter.builder(PARSES).tag("outcome", status.name().toLowerCase(Locale.ROOT))
                    .description("Registered queries parsed for lineage, by outcome").register(meters));
        }
    }

    /**
     * A registration over REST: {@code caller} needs write permission on the application of the query's process (a
     * process it cannot read, or one the registry has not announced here, is an unknown process). A {@code queryId}
     * registered before for a process the caller cannot read is a conflict that names nothing of that process.
     * Callers retry it with {@link TransientRetry} when it loses a race.
     */
    @WithTransaction
    public Uni<StoredQuery> register(Caller caller, NewQuery query) {
        long processId = query.processId();
        return access.require(caller, processId, Permission.WRITE, "process " + processId,
                        () -> UNKNOWN_PROCESS.exception("process " + processId + " is not known to lineage-service"))
                .chain(() -> query.queryId() == null ? Uni.createFrom().voidItem() : queries.find(query.queryId())
                        .chain(existing -> existing.filter(e -> e.processId() != processId)
                                .map(e -> access.require(caller, e.processId(), Permission.READ, "query " + e.id(),
                                        () -> CONFLICT.exception("query id " + e.id() + " is already registered")))
                                .orElseGet(() -> Uni.createFrom().voidItem())))
                .chain(() -> store(query, "api", null));
    }

    /**
     * QueryRegistered from the topic, registered and recorded in the ledger in one transaction, so a redelivered event
     * registers nothing twice. Semantic problems (unknown type, bad id) are stored as a failed query.
     */
    @WithTransaction
    public Uni<Void> apply(SpecificRecord event) {
        if (!(event instanceof QueryRegistered q)) {
            LOG.debugf("ignoring %s on the queries topic", event.getClass().getSimpleName());
            return Uni.createFrom().voidItem();
        }
        return ledger.once(CONSUMER, q, () -> store(toNewQuery(q), "kafka", Events.headerOf(q).getEventId()))
                .replaceWithVoid();
    }

    /** A stored query, for a caller who may read its process's application; to others it is not registered. */
    @WithSession
    public Uni<StoredQuery> find(Caller caller, UUID id) {
        Supplier<ApiException> unknown = () -> UNKNOWN_QUERY.exception("query " + id + " is not registered");
        return queries.find(id)
                .map(found -> found.orElseThrow(unknown))
                .call(q -> access.require(caller, q.processId(), Permission.READ, "query " + id, unknown))
                .chain(this::withStatements);
    }

    /** The stored queries of the processes {@code caller} may read. */
    @WithSession
    public Uni<Page<StoredQuery>> list(Caller caller, QueryFilter filter, PageRequest page) {
        return access.readable(caller).chain(reader -> queries.list(filter, reader, page.limit(), page.offset())
                .chain(items -> queries.statements(items.stream().map(StoredQuery::id).toList())
                        .map(statements -> items.stream()
                                .map(q -> q.withStatements(statements.getOrDefault(q.id(), List.of()))).toList()))
                .chain(items -> queries.count(filter, reader).map(total -> Page.of(items, total, page))));
    }

    /**
     * Stores and parses the query, and appends LineageParsed to the outbox in the caller's transaction; an already
     * registered {@code queryId} returns the stored one unchanged (and emits nothing).
     *
     * @param correlationId the QueryRegistered event id when the query came from Kafka, else null
     */
    private Uni<StoredQuery> store(NewQuery q, String via, String correlationId) {
        UUID id = q.queryId() == null ? UUID.randomUUID() : q.queryId();
        return queries.find(id).chain(existing -> existing.isPresent() ? Uni.createFrom().item(existing.get())
                        : storeNew(id, q, via, correlationId).invoke(stored -> parses.get(stored.parseStatus()).increment()))
                .chain(this::withStatements);
    }

    private Uni<StoredQuery> withStatements(StoredQuery query) {
        return queries.statements(List.of(query.id()))
                .map(found -> query.withStatements(found.getOrDefault(query.id(), List.of())));
    }

    private Uni<StoredQuery> storeNew(UUID id, NewQuery q, String via, String correlationId) {
        String database = q.defaultDatabase() == null || q.defaultDatabase().isBlank()
                ? ColumnLineageExtractor.DEFAULT_DATABASE : q.defaultDatabase().strip().toLowerCase(Locale.ROOT);
        if (q.rejection() != null) {
            return queries.insert(id, q, database, StoredQuery.ParseStatus.FAILED, q.rejection(), List.of(), via)
                    .chain(() -> announce(id, q, correlationId, List.of()));
        }
        if (q.type() == QueryType.PIG) {
            return queries.insert(id, q, database, StoredQuery.ParseStatus.UNSUPPORTED,
                            "Pig scripts are stored but not parsed for lineage", List.of(), via)
                    .chain(() -> announce(id, q, correlationId, List.of()));
        }
        return analyse(q.text(), database, q.variables(), new HashMap<>()).chain(analysis -> {
            if (analysis.crash() != null) {
                // The extractor reports parse errors itself; this is the last line of defence for the consumer.
                LOG.warnf("query %s could not be analysed: %s", id, analysis.crash().toString());
                return queries.insert(id, q, database, StoredQuery.ParseStatus.FAILED,
                                "lineage analysis failed: " + analysis.crash().getClass().getSimpleName(), List.of(), via)
                        .chain(() -> announce(id, q, correlationId, List.of()));
            }
            return storeLineage(id, q, database, via, correlationId, analysis.lineage());
        });
    }

    private Uni<StoredQuery> storeLineage(UUID id, NewQuery q, String database, String via, String correlationId,
                                          QueryLineage lineage) {
        List<String> warnings = lineage.warnings().stream().limit(MAX_WARNINGS).toList();
        StoredQuery.ParseStatus status = lineage.failed() ? StoredQuery.ParseStatus.FAILED : StoredQuery.ParseStatus.PARSED;
        List<StatementLineage> learned = lineage.statements().stream()
                .filter(s -> s.parsed() && s.learnedTable() != null && !s.learnedColumns().isEmpty()).toList();
        // One row per lineage statement; USE, SET and the other statements without lineage are applied or skipped.
        List<StatementLineage> statements = lineage.statements().stream().filter(s -> !s.skipped()).toList();
        return queries.insert(id, q, database, status, lineage.failed() ? lineage.errorSummary() : null, warnings, via)
                .chain(() -> InOrder.each(statements, s -> queries.insertStatement(id, q.instanceExecId(), s.index(),
                        s.sql(), s.database(), s.error())))
                .chain(() -> InOrder.each(learned, s -> schemas.learn(s.learnedTable(), s.learnedColumns(),
                        s.learnedTypes())))
                .chain(() -> graph.write(id, lineage))
                .chain(() -> announce(id, q, correlationId, lineage.statements().stream()
                        .flatMap(st -> st.tables().stream()).filter(t -> !t.temp()).toList()));
    }

    /** The extractor's lineage, or what it threw instead of reporting a parse error. */
    private record Analysis(QueryLineage lineage, Throwable crash) {
    }

    /**
     * Runs the extractor, which asks for table columns as it walks the text. The session cannot answer inside the
     * walk, so the tables it asked for and were not read yet are read in one statement and the walk runs again, until
     * it asks for nothing new (once for a query whose tables were all read, usually twice).
     *
     * @param known columns read so far, empty for a table without a registered schema
     */
    private Uni<Analysis> analyse(String text, String database, Map<String, String> variables,
                                  Map<String, Optional<List<String>>> known) {
        Set<String> unread = new LinkedHashSet<>();
        TableSchemas lookup = table -> {
            Optional<List<String>> columns = known.get(table);
            if (columns == null) {
                unread.add(table);
                return Optional.empty();
            }
            return columns;
        };
        return extract(text, database, variables, lookup).chain(analysis -> {
            if (unread.isEmpty()) {
                return Uni.createFrom().item(analysis);
            }
            return schemas.columns(unread).chain(read -> {
                unread.forEach(table -> known.put(table, Optional.ofNullable(read.get(table))));
                return analyse(text, database, variables, known);
            });
        });
    }

    /**
     * Parsing is CPU work on up to a million characters, so it runs on a worker thread, away from the event loop; the
     * result is handed back to the context that opened the transaction, where the session's statements must run.
     */
    private Uni<Analysis> extract(String text, String database, Map<String, String> variables, TableSchemas lookup) {
        return Blocking.blocking(() -> {
            try {
                return new Analysis(extractor.extract(text, database, variables, lookup), null);
            } catch (RuntimeException | StackOverflowError e) {
                return new Analysis(null, e);
            }
        });
    }

    private Uni<StoredQuery> announce(UUID id, NewQuery q, String correlationId, List<TableUse> tables) {
        return queries.find(id).map(Optional::orElseThrow).chain(stored -> outbox.append(Topics.LINEAGE_PARSED,
                        q.processId(), LineageParsed.newBuilder()
                                .setHeader(Events.header(PRODUCER, q.instanceExecId(), correlationId))
                                .setQueryId(id.toString())
                                .setProcessId(q.processId())
                                .setParseStatus(stored.parseStatus().name())
                                .setParseError(stored.parseError())
                                .setInputTables(tables.stream().filter(t -> !t.output()).map(TableUse::name).distinct()
                                        .toList())
                                .setOutputTables(tables.stream().filter(TableUse::output).map(TableUse::name).distinct()
                                        .toList())
                                .setRelationCount((int) stored.relationCount())
                                .build())
                .replaceWith(stored));
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
                id = UUID.nameUUIDFromBytes(q.getQueryId().getBytes(StandardCharsets.UTF_8));
            }
        }
        String text = q.getQueryText().isBlank() ? "(empty)" : q.getQueryText();
        return new NewQuery(id, type, text, Math.max(0, q.getProcessId()), q.getInstanceExecId() != null
                && q.getInstanceExecId() > 0 ? q.getInstanceExecId() : null, q.getDefaultDatabase(), variables(q),
                rejection);
    }

    /** The event's variables; an older producer sends none. Avro map keys arrive as CharSequence. */
    private static Map<String, String> variables(QueryRegistered q) {
        Map<String, String> out = new HashMap<>();
        if (q.getVariables() != null) {
            q.getVariables().forEach((k, v) -> {
                if (k != null && v != null) {
                    out.put(k.toString(), v.toString());
                }
            });
        }
        return out;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
