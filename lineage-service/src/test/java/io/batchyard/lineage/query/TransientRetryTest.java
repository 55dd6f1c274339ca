package io.batchyard.lineage.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TransientRetryTest {

    @Test
    void aDeadlockedTransactionIsRunAgain() {
        AtomicInteger calls = new AtomicInteger();
        String result = TransientRetry.run(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException("tx", new SQLException("deadlock detected", "40P01"));
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(calls).hasValue(3);
    }

    @Test
    void otherFailuresAndExhaustedRetriesPropagate() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> TransientRetry.run(() -> {
            calls.incrementAndGet();
            throw new IllegalStateException("tx", new SQLException("check violated", "23514"));
        })).isInstanceOf(IllegalStateException.class);
        assertThat(calls).hasValue(1);
        AtomicInteger racing = new AtomicInteger();
        assertThatThrownBy(() -> TransientRetry.run(() -> {
            racing.incrementAndGet();
            throw new IllegalStateException("tx", new SQLException("duplicate key", "23505"));
        })).isInstanceOf(IllegalStateException.class);
        assertThat(racing).hasValue(TransientRetry.ATTEMPTS);
    }
}
