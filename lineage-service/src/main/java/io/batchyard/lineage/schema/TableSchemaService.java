package io.batchyard.lineage.schema;

import static io.batchyard.lineage.LineageError.UNKNOWN_TABLE;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Table schemas registered over the API or learned from CREATE TABLE statements: there is no Hive metastore. The
 * methods without a transaction of their own serve other features and join the caller's session.
 */
@ApplicationScoped
public class TableSchemaService {

    private final TableSchemaRepository schemas;

    public TableSchemaService(TableSchemaRepository schemas) {
        this.schemas = schemas;
    }

    /** Registers or replaces the columns and answers the stored schema, in one transaction. */
    @WithTransaction
    public Uni<TableSchema> put(TableName table, List<String> columns, Map<String, String> types) {
        return schemas.put(table.qualified(), columns, types, "api")
                .chain(() -> schemas.find(table.qualified()))
                .map(stored -> stored.orElseThrow());
    }

    @WithSession
    public Uni<TableSchema> get(TableName table) {
        return schemas.find(table.qualified())
                .map(found -> found.orElseThrow(() -> UNKNOWN_TABLE.exception("no schema registered for " + table)));
    }

    @WithSession
    public Uni<Page<TableSchema>> list(PageRequest page) {
        return schemas.list(page.limit(), page.offset())
                .chain(items -> schemas.count().map(total -> Page.of(items, total, page)));
    }

    /** Replaces the columns of a table a parsed CREATE TABLE statement declares; the newest registration wins. */
    public Uni<Void> learn(String table, List<String> columns, Map<String, String> types) {
        return schemas.put(table, columns, types, "ddl");
    }

    /** The known columns of those tables; a table without a schema is absent from the map. */
    public Uni<Map<String, List<String>>> columns(Collection<String> tables) {
        return schemas.columns(tables);
    }

    /** The known column types of those tables (column to type); a table without a schema is absent. */
    public Uni<Map<String, Map<String, String>>> types(Collection<String> tables) {
        return schemas.types(tables);
    }
}
