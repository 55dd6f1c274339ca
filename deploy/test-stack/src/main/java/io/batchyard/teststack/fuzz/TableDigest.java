package io.batchyard.teststack.fuzz;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A fingerprint of every table of one database: row count plus the md5 of all rows (as JSON, sorted). Columns that
 * background work updates on its own (the outbox relay's bookkeeping) are left out, so that only a request's own
 * writes show. Flyway's history never changes at run time and is skipped.
 */
final class TableDigest implements AutoCloseable {

    /** Columns the outbox relay sets after a request is long done. */
    static final Set<String> RELAY_COLUMNS = Set.of("published_at", "attempts", "last_error");

    private final Connection connection;
    private final String query;
    private final List<String> tables = new ArrayList<>();

    TableDigest(String jdbcUrl, String user, String password, Set<String> ignoredTables) throws SQLException {
        connection = DriverManager.getConnection(jdbcUrl, user, password);
        StringBuilder sql = new StringBuilder();
        Map<String, Set<String>> columns = new TreeMap<>();
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("""
                     SELECT c.table_name, c.column_name FROM information_schema.columns c
                       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'""")) {
            while (rs.next()) {
                columns.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getString(2));
            }
        }
        for (Map.Entry<String, Set<String>> table : columns.entrySet()) {
            String name = table.getKey();
            // The audit trail records every refused call, which is its purpose: a refusal that "changes nothing"
            // still leaves its audit entry.
            if (name.equals("flyway_schema_history") || name.equals("audit_entry") || ignoredTables.contains(name)) {
                continue;
            }
            List<String> drop = new ArrayList<>();
            if (name.equals("outbox_event")) {
                table.getValue().stream().filter(RELAY_COLUMNS::contains).forEach(c -> drop.add("'" + c + "'"));
            }
            String row = drop.isEmpty() ? "to_jsonb(t)::text"
                    : "(to_jsonb(t) - ARRAY[" + String.join(",", drop) + "]::text[])::text";
            if (!sql.isEmpty()) {
                sql.append(" UNION ALL ");
            }
            sql.append("SELECT '").append(name).append("', count(*) || ':' || coalesce(md5(string_agg(").append(row)
                    .append(", '|' ORDER BY ").append(row).append(")), '') FROM \"").append(name).append("\" t");
            tables.add(name);
        }
        query = sql.toString();
    }

    List<String> tables() {
        return tables;
    }

    Map<String, String> snapshot() throws SQLException {
        Map<String, String> digest = new TreeMap<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                digest.put(rs.getString(1), rs.getString(2));
            }
        }
        return digest;
    }

    /** Waits (bounded) until background work has settled: two snapshots in a row are equal. */
    Map<String, String> settled() throws SQLException, InterruptedException {
        Map<String, String> previous = snapshot();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            Thread.sleep(300);
            Map<String, String> next = snapshot();
            if (next.equals(previous)) {
                return next;
            }
            previous = next;
        }
        return previous;
    }

    static List<String> changed(Map<String, String> before, Map<String, String> after) {
        List<String> changed = new ArrayList<>();
        for (String table : after.keySet()) {
            if (!after.get(table).equals(before.get(table))) {
                changed.add(table);
            }
        }
        return changed;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
