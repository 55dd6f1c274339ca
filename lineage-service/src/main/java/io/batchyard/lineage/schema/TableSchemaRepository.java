package io.batchyard.lineage.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.persistence.Columns;
import io.quarkus.hibernate.reactive.panache.Panache;
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
public class TableSchemaRepository {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Arrays come back as JSON text: a native query cannot say which Java type a {@code TEXT[]} column maps to. */
    private static final String COLUMNS =
            "SELECT table_name, array_to_json(columns)::text, learned_from, updated_at, column_types::text FROM table_schema";

    public Uni<Optional<TableSchema>> find(String table) {
        return Panache.getSession().chain(s -> s.createNativeQuery(COLUMNS + " WHERE table_name = :t", Object[].class)
                .setParameter("t", table)
                .getResultList()
                .map(rows -> rows.stream().findFirst().map(TableSchemaRepository::row)));
    }

    public Uni<List<TableSchema>> list(int limit, int offset) {
        return Panache.getSession().chain(s -> s.createNativeQuery(COLUMNS
                        + " ORDER BY table_name LIMIT :limit OFFSET :offset", Object[].class)
                .setParameter("limit", limit).setParameter("offset", offset)
                .getResultList()
                .map(rows -> rows.stream().map(TableSchemaRepository::row).toList()));
    }

    public Uni<Long> count() {
        return Panache.getSession().chain(s -> s.createNativeQuery("SELECT count(*) FROM table_schema", Long.class)
                .getSingleResult());
    }

    /** The known columns of those tables; a table without a schema is absent from the map. */
    public Uni<Map<String, List<String>>> columns(Collection<String> tables) {
        if (tables.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT table_name, array_to_json(columns)::text FROM table_schema WHERE table_name IN (:tables)", Object[].class)
                .setParameter("tables", tables)
                .getResultList()
                .map(rows -> {
                    Map<String, List<String>> columns = new HashMap<>();
                    rows.forEach(r -> columns.put((String) r[0], Columns.strings(r[1])));
                    return columns;
                }));
    }

    /** The known column types of those tables (column to type); a table without a schema is absent. */
    public Uni<Map<String, Map<String, String>>> types(Collection<String> tables) {
        if (tables.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT table_name, column_types::text FROM table_schema WHERE table_name IN (:tables)",
                        Object[].class)
                .setParameter("tables", tables)
                .getResultList()
                .map(rows -> {
                    Map<String, Map<String, String>> types = new HashMap<>();
                    rows.forEach(r -> types.put((String) r[0], types(r[1])));
                    return types;
                }));
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
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO table_schema (table_name, columns, learned_from, column_types)
                        VALUES (:t, :c, :from, CAST(CAST(:types AS text) AS jsonb))
                        ON CONFLICT (table_name) DO UPDATE
                        SET columns = EXCLUDED.columns, learned_from = EXCLUDED.learned_from,
                            column_types = EXCLUDED.column_types, updated_at = now()""")
                .setParameter("t", table)
                .setParameter("types", typesJson)
                .setParameter("c", columns.toArray(String[]::new))
                .setParameter("from", learnedFrom)
                .executeUpdate()
                .replaceWithVoid());
    }

    private static TableSchema row(Object[] r) {
        return new TableSchema((String) r[0], Columns.strings(r[1]), types(r[4]), (String) r[2], Columns.time(r[3]));
    }

    private static Map<String, String> types(Object json) {
        try {
            return json == null ? Map.of() : JSON.readValue((String) json, new TypeReference<TreeMap<String, String>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("column_types is a JSON object of strings (a CHECK says so)", e);
        }
    }
}
