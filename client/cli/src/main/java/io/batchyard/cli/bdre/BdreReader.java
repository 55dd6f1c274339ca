package io.batchyard.cli.bdre;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a BDRE metadata database over JDBC, MySQL/MariaDB or PostgreSQL alike. BDRE's MySQL DDL names its tables in
 * upper case and MySQL on Linux compares table names case-sensitively, while PostgreSQL folds them to lower case, so
 * every table is looked up by name case-insensitively and queried by the name the catalog reports. Columns that
 * BDRE added later (process permissions) are read only where the schema has them. Read-only: nothing is written.
 */
public final class BdreReader {

    private final Connection connection;
    private final Map<String, String> tables = new HashMap<>();

    public BdreReader(Connection connection) throws SQLException {
        this.connection = connection;
        DatabaseMetaData meta = connection.getMetaData();
        try (ResultSet r = meta.getTables(connection.getCatalog(), null, "%", new String[] {"TABLE"})) {
            while (r.next()) {
                String schema = r.getString("TABLE_SCHEM");
                if (schema == null || schema.equalsIgnoreCase("public") || schema.equals(connection.getSchema())) {
                    tables.putIfAbsent(r.getString("TABLE_NAME").toUpperCase(Locale.ROOT), r.getString("TABLE_NAME"));
                }
            }
        }
    }

    public Bdre.Snapshot read() throws SQLException {
        for (String needed : List.of("BUS_DOMAIN", "PROCESS", "PROPERTIES", "SERVERS")) {
            if (!tables.containsKey(needed)) {
                throw new SQLException("not a BDRE metadata database: table " + needed + " is missing");
            }
        }
        return new Bdre.Snapshot(busDomains(), processes(), properties("PROPERTIES", "process_id", "prop_key",
                "prop_value"), templates(), properties("PROPERTIES_TEMPLATE", "process_template_id", "prop_temp_key",
                "prop_temp_value"), servers());
    }

    private List<Bdre.BusDomain> busDomains() throws SQLException {
        List<Bdre.BusDomain> out = new ArrayList<>();
        query("SELECT bus_domain_id, bus_domain_name, description, bus_domain_owner FROM " + table("BUS_DOMAIN")
                + " ORDER BY bus_domain_id", r -> out.add(new Bdre.BusDomain(r.getLong(1), r.getString(2),
                r.getString(3), r.getString(4))));
        return out;
    }

    private List<Bdre.Process> processes() throws SQLException {
        Set<String> columns = columns("PROCESS");
        boolean permissions = columns.containsAll(Set.of("user_access_id", "group_access_id", "others_access_id"));
        boolean owner = columns.contains("user_name");
        boolean role = columns.contains("owner_role_id") && tables.containsKey("USER_ROLES");
        String sql = "SELECT p.process_id, p.process_name, p.description, p.bus_domain_id, p.process_type_id, "
                + "p.parent_process_id, p.can_recover, p.enqueuing_process_id, p.batch_cut_pattern, "
                + "p.next_process_id, p.delete_flag, p.workflow_id, "
                + (owner ? "p.user_name" : "NULL") + ", " + (role ? "ur.role" : "NULL") + ", "
                + (permissions ? "p.user_access_id, p.group_access_id, p.others_access_id" : "NULL, NULL, NULL")
                + " FROM " + table("PROCESS") + " p"
                + (role ? " LEFT JOIN " + table("USER_ROLES") + " ur ON ur.user_role_id = p.owner_role_id" : "")
                + " ORDER BY p.process_id";
        List<Bdre.Process> out = new ArrayList<>();
        query(sql, r -> out.add(new Bdre.Process(r.getLong(1), r.getString(2), r.getString(3), r.getLong(4),
                r.getInt(5), nullableLong(r, 6), r.getBoolean(7), Bdre.ids(r.getString(8)), r.getString(9),
                Bdre.ids(r.getString(10)), r.getBoolean(11), r.getInt(12), r.getString(13), r.getString(14),
                nullableInt(r, 15), nullableInt(r, 16), nullableInt(r, 17))));
        return out;
    }

    private List<Bdre.Property> properties(String name, String owner, String key, String value) throws SQLException {
        List<Bdre.Property> out = new ArrayList<>();
        if (!tables.containsKey(name)) {
            return out;
        }
        query("SELECT " + owner + ", config_group, " + key + ", " + value + ", description FROM " + table(name)
                + " ORDER BY " + owner + ", " + key, r -> out.add(new Bdre.Property(r.getLong(1), r.getString(2),
                r.getString(3), r.getString(4), r.getString(5))));
        return out;
    }

    private List<Bdre.Template> templates() throws SQLException {
        List<Bdre.Template> out = new ArrayList<>();
        if (!tables.containsKey("PROCESS_TEMPLATE")) {
            return out;
        }
        query("SELECT process_template_id, process_name, description, bus_domain_id, process_type_id, "
                + "parent_process_id, can_recover, batch_cut_pattern, next_process_template_id, delete_flag, "
                + "workflow_id FROM " + table("PROCESS_TEMPLATE") + " ORDER BY process_template_id",
                r -> out.add(new Bdre.Template(r.getLong(1), r.getString(2), r.getString(3), r.getLong(4),
                        r.getInt(5), nullableLong(r, 6), r.getBoolean(7), r.getString(8), Bdre.ids(r.getString(9)),
                        r.getBoolean(10), r.getInt(11))));
        return out;
    }

    private List<Bdre.Server> servers() throws SQLException {
        List<Bdre.Server> out = new ArrayList<>();
        query("SELECT server_id, server_type, server_name, server_metainfo, login_user, login_password, "
                + "ssh_private_key, server_ip FROM " + table("SERVERS") + " ORDER BY server_id",
                r -> out.add(new Bdre.Server(r.getLong(1), r.getString(2), r.getString(3), r.getString(4),
                        r.getString(5), r.getString(6), r.getString(7), r.getString(8))));
        return out;
    }

    private interface RowReader {
        void read(ResultSet r) throws SQLException;
    }

    private void query(String sql, RowReader reader) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                reader.read(r);
            }
        }
    }

    private String table(String upper) {
        return tables.getOrDefault(upper, upper);
    }

    private Set<String> columns(String upper) throws SQLException {
        Set<String> out = new HashSet<>();
        try (ResultSet r = connection.getMetaData().getColumns(connection.getCatalog(), null, table(upper), "%")) {
            while (r.next()) {
                out.add(r.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static Long nullableLong(ResultSet r, int column) throws SQLException {
        long v = r.getLong(column);
        return r.wasNull() ? null : v;
    }

    private static Integer nullableInt(ResultSet r, int column) throws SQLException {
        int v = r.getInt(column);
        return r.wasNull() ? null : v;
    }
}
