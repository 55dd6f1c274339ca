package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The outbox row commits with the state change it announces, or not at all. */
@EventingQuarkusTest
class OutboxTest {

    private static final String TOPIC = "eventing-test.outbox";

    @Inject
    Outbox outbox;

    @Inject
    TransactionFixture tx;

    @BeforeEach
    void tables() {
        tx.prepare();
    }

    @Test
    void theEventCommitsWithTheChange() {
        ProcessDeleted event = EventingFixture.event(11);
        UUID id = Events.eventId(event);

        tx.inTransaction(() -> tx.effect("outbox", id).chain(() -> outbox.append(TOPIC, 11, event)));

        assertThat(tx.count("SELECT count(*) FROM test_effect WHERE event_id = $1", id)).isEqualTo(1);
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = $1 AND record_key = '11'"
                + " AND published_at IS NULL", id)).isEqualTo(1);
    }

    @Test
    void aChangeThatRollsBackTakesItsEventWithIt() {
        ProcessDeleted event = EventingFixture.event(12);
        UUID id = Events.eventId(event);

        assertThatThrownBy(() -> tx.inTransaction(() -> outbox.append(TOPIC, 12, event)
                .chain(() -> tx.effect("outbox", id))
                .chain(() -> Uni.createFrom().failure(new IllegalStateException("the change failed")))))
                .hasMessageContaining("the change failed");

        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = $1", id)).isZero();
        assertThat(tx.count("SELECT count(*) FROM test_effect WHERE event_id = $1", id)).isZero();
    }

    @Test
    void anEventIsNeverWrittenOutsideATransaction() {
        ProcessDeleted event = EventingFixture.event(13);
        UUID id = Events.eventId(event);

        assertThatThrownBy(() -> tx.withoutTransaction(() -> outbox.append(TOPIC, 13, event)))
                .hasMessageContaining("inside the business transaction");
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = $1", id)).isZero();
    }
}
