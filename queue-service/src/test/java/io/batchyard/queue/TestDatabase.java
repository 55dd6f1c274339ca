package io.batchyard.queue;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Infrastructure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Plain JDBC against the test application's database, for tests that set up or read rows behind the service. */
public final class TestDatabase {

    /** Maps the current row. */
    public interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private TestDatabase() {
    }

    /** The single number a query returns ({@code ?} parameters). */
    public static long number(String sql, Object... params) {
        return list(sql, rs -> rs.getLong(1), params).get(0);
    }

    public static <T> List<T> list(String sql, Row<T> row, Object... params) {
        try (Connection c = connect(); PreparedStatement s = prepare(c, sql, params); ResultSet rs = s.executeQuery()) {
            List<T> out = new ArrayList<>();
            while (rs.next()) {
                out.add(row.map(rs));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs statements (a script, or one statement with {@code ?} parameters) in one transaction. */
    public static void execute(String sql, Object... params) {
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement s = prepare(c, sql, params)) {
                s.execute();
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement s = c.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) {
            s.setObject(i + 1, params[i]);
        }
        return s;
    }

    /** A connection of the test's own, e.g. to hold a lock while the service waits for it. */
    public static Connection connect() throws SQLException {
        Infrastructure.Database db = BatchyardTestStack.database();
        return db.connect();
    }
}
