package io.batchyard.lineage.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.hibernate.JDBCException;
import org.junit.jupiter.api.Test;

class TransientRetryTest {

    @Test
    void aDeadlockedTransactionIsRunAgain() {
        AtomicInteger calls = new AtomicInteger();
        String result = TransientRetry.run(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException("tx", new JDBCException("deadlock detected",
                        new SQLException("deadlock detected", "40P01")));
            }
            return Uni.createFrom().item("ok");
        }).await().indefinitely();
        assertThat(result).isEqualTo("ok");
        assertThat(calls).hasValue(3);
    }

    @Test
    void otherFailuresAndExhaustedRetriesPropagate() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> TransientRetry.run(() -> {
            calls.incrementAndGet();
            throw new IllegalStateException("tx", new JDBCException("check violated",
                    new SQLException("check violated", "23514")));
        }).await().indefinitely()).isInstanceOf(IllegalStateException.class);
        assertThat(calls).hasValue(1);
        AtomicInteger racing = new AtomicInteger();
        assertThatThrownBy(() -> TransientRetry.run(() -> {
            racing.incrementAndGet();
            throw new IllegalStateException("tx", new JDBCException("duplicate key",
                    new SQLException("duplicate key", "23505")));
        }).await().indefinitely()).isInstanceOf(IllegalStateException.class);
        assertThat(racing).hasValue(TransientRetry.ATTEMPTS);
    }
}
