package io.batchyard.lineage.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The column lists the parser needs, registered over the API or learned from CREATE TABLE statements. */
@ApplicationScoped
public class TableSchemaRepository extends SqlRepository {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Arrays come back as JSON text: a native query cannot say which Java type a {@code TEXT[]} column maps to. */
    private static final String COLUMNS = "SELECT table_name, array_to_json(columns)::text AS columns, learned_from,"
            + " updated_at, column_types::text AS column_types FROM table_schema";

    public Uni<Optional<TableSchema>> find(String table) {
        return first(COLUMNS + " WHERE table_name = :t", Params.of("t", table), TableSchemaRepository::map);
    }

    public Uni<List<TableSchema>> list(int limit, int offset) {
        Paging paging = new Paging(limit, offset);
        return list(COLUMNS + " ORDER BY table_name" + Paging.CLAUSE, paging.params(), TableSchemaRepository::map);
    }

    public Uni<Long> count() {
        return single("SELECT count(*) FROM table_schema", Long.class, Params.none());
    }

    /** The known columns of those tables; a table without a schema is absent from the map. */
    public Uni<Map<String, List<String>>> columns(Collection<String> tables) {
        if (tables.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list(COLUMNS + " WHERE table_name IN (:tables)", Params.of("tables", tables),
                TableSchemaRepository::map)
                .map(schemas -> {
                    Map<String, List<String>> columns = new HashMap<>();
                    schemas.forEach(s -> columns.put(s.table(), s.columns()));
                    return columns;
                });
    }

    /** The known column types of those tables (column to type); a table without a schema is absent. */
    public Uni<Map<String, Map<String, String>>> types(Collection<String> tables) {
        if (tables.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list(COLUMNS + " WHERE table_name IN (:tables)", Params.of("tables", tables),
                TableSchemaRepository::map)
                .map(schemas -> {
                    Map<String, Map<String, String>> types = new HashMap<>();
                    schemas.forEach(s -> types.put(s.table(), s.types()));
                    return types;
                });
    }

    /**
     * Replaces the table's columns and their types (only those of listed columns are kept); the newest registration
     * wins, whether from the API or from DDL.
     */
    public Uni<Void> put(String table, List<String> columns, Map<String, String> types, String learnedFrom) {
        Map<String, String> kept = new TreeMap<>();
        types.forEach((c, t) -> {
            if (columns.contains(c) && t != null && !t.isBlank()) {
                kept.put(c, t);
            }
        });
        String typesJson;
        try {
            typesJson = JSON.writeValueAsString(kept);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always serialises", e);
        }
        // Bound as text and cast: the reactive client sends a String bound to a jsonb parameter as a JSON string.
        return update("""
                        INSERT INTO table_schema (table_name, columns, learned_from, column_types)
                        VALUES (:t, :c, :from, CAST(CAST(:types AS text) AS jsonb))
                        ON CONFLICT (table_name) DO UPDATE
                        SET columns = EXCLUDED.columns, learned_from = EXCLUDED.learned_from,
                            column_types = EXCLUDED.column_types, updated_at = now()""",
                Params.of("t", table).and("types", typesJson).and("c", columns.toArray(String[]::new))
                        .and("from", learnedFrom))
                .replaceWithVoid();
    }

    private static TableSchema map(Row r) {
        return new TableSchema(r.getString("table_name"), r.getStrings("columns"),
                types(r.getString("column_types")), r.getString("learned_from"), r.getTime("updated_at"));
    }

    private static Map<String, String> types(String json) {
        try {
            return json == null ? Map.of() : JSON.readValue(json, new TypeReference<TreeMap<String, String>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("column_types is a JSON object of strings (a CHECK says so)", e);
        }
    }
}
