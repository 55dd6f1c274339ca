package io.batchyard.lineage.query;

import java.sql.SQLException;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Re-runs a registration transaction that lost a race. Queries that read the same tables upsert the same node rows, so
 * two concurrent registrations (REST and Kafka) can deadlock; and two registrations of one {@code queryId} meet at its
 * primary key. Both are "not applied" failures: the retry sees the other transaction's rows and succeeds. Without it
 * a Kafka record would go to the dead-letter topic although nothing was wrong with it.
 */
final class TransientRetry {

    private static final Set<String> RETRYABLE = Set.of("40P01", "40001", "23505");
    static final int ATTEMPTS = 4;

    private TransientRetry() {
    }

    static <T> T run(Supplier<T> transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !retryable(e)) {
                    throw e;
                }
                sleep(20L * attempt);
            }
        }
    }

    static boolean retryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && RETRYABLE.contains(sql.getSQLState())) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a registration", ie);
        }
    }
}
