package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
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

    @Test
    void manyEventsAppendedTogetherKeepTheirOrderAcrossStatements() {
        // More rows than one INSERT carries, so the list is written in two statements.
        int n = OutboxRepository.ROWS_PER_INSERT + 7;
        List<ProcessDeleted> events = IntStream.range(0, n).mapToObj(i -> EventingFixture.event(100_000 + i)).toList();
        UUID first = Events.eventId(events.get(0));

        tx.inTransaction(() -> tx.effect("outbox", first)
                .chain(() -> outbox.appendAll(TOPIC, events, e -> e.getParentProcessId(), e -> e)));

        List<UUID> ids = events.stream().map(Events::eventId).toList();
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = ANY($1) AND published_at IS NULL",
                (Object) ids.toArray(UUID[]::new))).isEqualTo(n);
        // Positions follow the list: the row of event i has exactly i rows of the list before it.
        for (int i : new int[] {0, 1, OutboxRepository.ROWS_PER_INSERT - 1, OutboxRepository.ROWS_PER_INSERT, n - 1}) {
            assertThat(tx.count("SELECT count(*) FROM outbox_event o, outbox_event me WHERE me.event_id = $1"
                    + " AND o.event_id = ANY($2) AND o.position < me.position", ids.get(i),
                    ids.toArray(UUID[]::new))).as("rows before event %d", i).isEqualTo(i);
        }
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = $1 AND record_key = $2"
                + " AND event_type = 'ProcessDeleted' AND traceparent IS NOT NULL", ids.get(n - 1),
                String.valueOf(100_000 + n - 1))).isEqualTo(1);
    }

    @Test
    void eventsAppendedTogetherRollBackWithTheChange() {
        List<ProcessDeleted> events = List.of(EventingFixture.event(21), EventingFixture.event(22));
        UUID[] ids = events.stream().map(Events::eventId).toArray(UUID[]::new);

        assertThatThrownBy(() -> tx.inTransaction(() -> outbox.appendAll(TOPIC, events, e -> e.getParentProcessId(), e -> e)
                .chain(() -> Uni.createFrom().failure(new IllegalStateException("the change failed")))))
                .hasMessageContaining("the change failed");
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = ANY($1)", (Object) ids)).isZero();

        assertThatThrownBy(() -> tx.withoutTransaction(() -> outbox.appendAll(TOPIC, events, e -> e.getParentProcessId(),
                e -> e))).hasMessageContaining("inside the business transaction");
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = ANY($1)", (Object) ids)).isZero();
    }
}
