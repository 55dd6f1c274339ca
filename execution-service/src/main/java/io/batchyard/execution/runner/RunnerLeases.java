package io.batchyard.execution.runner;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * runner_lease: the row that makes a parent's run exclusive across runners; a runner keeps it alive while it runs.
 */
@ApplicationScoped
public class RunnerLeases {

    /** A lease held on a parent. */
    public record Lease(long processId, String owner, List<String> buckets, Long instanceExecId) {
    }

    /**
     * Removes the parent's lease if it expired (its runner died) and returns it, so the caller can clean up after it
     * in the same transaction. Of two runners reaping at once, one gets the row; the other finds none.
     */
    public Optional<Lease> reapExpired(Handle tx, long processId) {
        return tx.createQuery("""
                DELETE FROM runner_lease WHERE process_id = :p AND lease_until < now()
                RETURNING process_id, owner, buckets, instance_exec_id""")
                .bind("p", processId).map(RunnerLeases::lease).findOne();
    }

    /** Claims the parent; false when another runner holds it (the primary key decides between racing runners). */
    public boolean claim(Handle tx, long processId, String owner, List<String> buckets, Duration lease) {
        return tx.createUpdate("""
                INSERT INTO runner_lease (process_id, owner, buckets, lease_until)
                VALUES (:p, :o, :b, now() + CAST(:lease AS INTERVAL)) ON CONFLICT (process_id) DO NOTHING""")
                .bind("p", processId).bind("o", owner).bindArray("b", String.class, buckets)
                .bind("lease", lease.toMillis() + " milliseconds").execute() == 1;
    }

    /** Extends the lease; false when it was lost (taken over after expiry). */
    public boolean refresh(Handle tx, long processId, String owner, Duration lease) {
        return tx.createUpdate("""
                UPDATE runner_lease SET lease_until = now() + CAST(:lease AS INTERVAL) WHERE process_id = :p AND owner = :o""")
                .bind("p", processId).bind("o", owner).bind("lease", lease.toMillis() + " milliseconds").execute() == 1;
    }

    public void release(Handle tx, long processId, String owner) {
        tx.createUpdate("DELETE FROM runner_lease WHERE process_id = :p AND owner = :o")
                .bind("p", processId).bind("o", owner).execute();
    }

    public Optional<Lease> find(Handle h, long processId) {
        return h.createQuery("SELECT process_id, owner, buckets, instance_exec_id FROM runner_lease WHERE process_id = :p AND lease_until >= now()")
                .bind("p", processId).map(RunnerLeases::lease).findOne();
    }

    /** Maps {@code process_id, owner, buckets, instance_exec_id}. */
    private static Lease lease(ResultSet rs, StatementContext ctx) throws SQLException {
        return new Lease(rs.getLong(1), rs.getString(2), List.of((String[]) rs.getArray(3).getArray()),
                (Long) rs.getObject(4));
    }
}
