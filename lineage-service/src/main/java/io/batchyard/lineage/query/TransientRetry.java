package io.batchyard.lineage.query;

import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import java.util.Set;
import java.util.function.Supplier;
import org.hibernate.JDBCException;

/**
 * Re-runs a registration transaction that lost a race. Queries that read the same tables upsert the same node rows, so
 * two concurrent registrations (REST and Kafka) can deadlock; and two registrations of one {@code queryId} meet at its
 * primary key. Both are "not applied" failures: the retry sees the other transaction's rows and succeeds. Without it
 * a Kafka record would go to the dead-letter topic although nothing was wrong with it (the consumers' retry takes a
 * unique violation for poison).
 *
 * <p>The retry subscribes again at once, on the thread that saw the failure: the losing transaction has already rolled
 * back, and the winner has committed or holds the lock the new attempt waits for inside PostgreSQL.
 */
public final class TransientRetry {

    private static final Set<String> RETRYABLE = Set.of("40P01", "40001", "23505");
    static final int ATTEMPTS = 4;

    private TransientRetry() {
    }

    /** Subscribes to {@code transaction} (a {@code @WithTransaction} service call) up to {@link #ATTEMPTS} times. */
    public static <T> Uni<T> run(Supplier<Uni<? extends T>> transaction) {
        return Uni.createFrom().deferred(transaction)
                .onFailure(TransientRetry::retryable).retry().atMost(ATTEMPTS - 1);
    }

    /**
     * Hibernate Reactive reports a failed statement as a {@link JDBCException} carrying the SQL state; a failure outside
     * a statement (the commit) can arrive as the reactive client's own {@link PgException}.
     */
    static boolean retryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String state = t instanceof JDBCException jdbc ? jdbc.getSQLState()
                    : t instanceof PgException pg ? pg.getSqlState() : null;
            if (state != null && RETRYABLE.contains(state)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
