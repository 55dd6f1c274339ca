package io.batchyard.teststack.fuzz;

import io.batchyard.teststack.Infrastructure;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A fingerprint of every table of one database: row count plus the md5 of all rows (as JSON, sorted). Columns that
 * background work updates on its own (the outbox relay's bookkeeping) are left out, so that only a request's own
 * writes show. Flyway's history never changes at run time and is skipped; so is the consumers' ledger
 * ({@code processed_event}), which only a Kafka consumer writes, on its own time: a request that wrongly emitted an
 * event still shows, as a new {@code outbox_event} row.
 */
final class TableDigest implements AutoCloseable {

    /** Columns the outbox relay sets after a request is long done. */
    static final Set<String> RELAY_COLUMNS = Set.of("published_at", "attempts", "last_error");

    private final Connection connection;
    private final String query;
    private final List<String> tables = new ArrayList<>();

    TableDigest(String jdbcUrl, String user, String password, Set<String> ignoredTables) throws SQLException {
        connection = Infrastructure.connect(jdbcUrl, user, password);
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
            if (name.equals("flyway_schema_history") || name.equals("audit_entry") || name.equals("processed_event")
                    || ignoredTables.contains(name)) {
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

    /**
     * The tables after a write that succeeded, once what it set going in the background has landed. Background work
     * here is a consumer applying an event, so a write that added no outbox row set nothing going and its own changes
     * are all there now: it is read at once instead of waiting for {@link #settled()}.
     */
    Map<String, String> after(Map<String, String> before) throws SQLException, InterruptedException {
        Map<String, String> now = snapshot();
        return Objects.equals(now.get("outbox_event"), before.get("outbox_event")) ? now : settled();
    }

    /**
     * Waits (bounded) until background work has settled: the outbox holds nothing unpublished and three snapshots in a
     * row, 300 ms apart, are equal. A consumer group that is rebalancing can sit idle for a second before it applies
     * an event, so two equal snapshots alone are not enough.
     */
    Map<String, String> settled() throws SQLException, InterruptedException {
        Map<String, String> previous = snapshot();
        int equal = 0;
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            Thread.sleep(300);
            Map<String, String> next = snapshot();
            equal = next.equals(previous) && outboxDrained() ? equal + 1 : 0;
            if (equal == 2) {
                return next;
            }
            previous = next;
        }
        return previous;
    }

    private boolean outboxDrained() throws SQLException {
        if (!tables.contains("outbox_event")) {
            return true;
        }
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT NOT EXISTS (SELECT 1 FROM outbox_event WHERE published_at IS NULL)"
                     + " AS drained")) {
            return rs.next() && rs.getBoolean("drained");
        }
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
