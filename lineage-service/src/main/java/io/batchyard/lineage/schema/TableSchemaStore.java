package io.batchyard.lineage.schema;

import io.batchyard.lineage.column.TableSchemas;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** The column lists the parser needs, registered over the API or learned from CREATE TABLE statements. */
@ApplicationScoped
public class TableSchemaStore {

    public record TableSchema(String table, List<String> columns, String learnedFrom, OffsetDateTime updatedAt) {
    }

    public Optional<TableSchema> find(Handle h, String table) {
        return h.createQuery("SELECT table_name, columns, learned_from, updated_at FROM table_schema WHERE table_name = :t")
                .bind("t", table)
                .map((rs, ctx) -> new TableSchema(rs.getString(1), Arrays.asList((String[]) rs.getArray(2).getArray()),
                        rs.getString(3), rs.getObject(4, OffsetDateTime.class)))
                .findOne();
    }

    public List<TableSchema> list(Handle h, int limit, int offset) {
        return h.createQuery("""
                        SELECT table_name, columns, learned_from, updated_at FROM table_schema
                        ORDER BY table_name LIMIT :limit OFFSET :offset""")
                .bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> new TableSchema(rs.getString(1), Arrays.asList((String[]) rs.getArray(2).getArray()),
                        rs.getString(3), rs.getObject(4, OffsetDateTime.class)))
                .list();
    }

    public long count(Handle h) {
        return h.createQuery("SELECT count(*) FROM table_schema").mapTo(Long.class).one();
    }

    /** Replaces the table's columns; the newest registration wins, whether from the API or from DDL. */
    public void put(Handle h, String table, List<String> columns, String learnedFrom) {
        h.createUpdate("""
                        INSERT INTO table_schema (table_name, columns, learned_from) VALUES (:t, :c, :from)
                        ON CONFLICT (table_name) DO UPDATE
                        SET columns = EXCLUDED.columns, learned_from = EXCLUDED.learned_from, updated_at = now()""")
                .bind("t", table)
                .bind("c", columns.toArray(String[]::new))
                .bind("from", learnedFrom)
                .execute();
    }

    /** The store as the parser sees it, inside one transaction. */
    public TableSchemas schemas(Handle h) {
        return name -> find(h, name).map(TableSchema::columns);
    }
}
