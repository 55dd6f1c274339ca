package io.batchyard.lineage.schema;

import static io.batchyard.lineage.LineageError.UNKNOWN_TABLE;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/** Table schemas registered over the API: there is no Hive metastore. */
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
}
