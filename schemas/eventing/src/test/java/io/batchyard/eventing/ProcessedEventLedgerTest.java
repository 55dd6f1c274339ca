package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The idempotent-consumer ledger on a real PostgreSQL: an event's effect is applied once, and only with its ledger row. */
class ProcessedEventLedgerTest {

    private static Jdbi jdbi;

    @BeforeAll
    static void database() {
        jdbi = EventingFixture.freshDatabase("eventing_ledger");
        jdbi.useHandle(h -> h.execute("CREATE TABLE ledger_effect (consumer TEXT NOT NULL, event_id UUID NOT NULL)"));
    }

    @Test
    void aRedeliveredEventChangesNothing() {
        ProcessedEventLedger ledger = EventingFixture.ledger(jdbi);
        ProcessDeleted event = EventingFixture.event(1);

        boolean first = ledger.processOnce("projector", event, tx -> applyEffect(tx, "projector", event));
        boolean second = ledger.processOnce("projector", event, tx -> applyEffect(tx, "projector", event));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(ledger.duplicatesDropped()).isEqualTo(1);
        assertThat(effects("projector", Events.eventId(event))).isEqualTo(1);
        assertThat(ledgerRows("projector", Events.eventId(event))).isEqualTo(1);
    }

    @Test
    void eachConsumerKeepsItsOwnLedger() {
        ProcessedEventLedger ledger = EventingFixture.ledger(jdbi);
        ProcessDeleted event = EventingFixture.event(2);

        assertThat(ledger.processOnce("first", event, tx -> applyEffect(tx, "first", event))).isTrue();
        assertThat(ledger.processOnce("second", event, tx -> applyEffect(tx, "second", event))).isTrue();

        assertThat(ledger.duplicatesDropped()).isZero();
        assertThat(effects("first", Events.eventId(event))).isEqualTo(1);
        assertThat(effects("second", Events.eventId(event))).isEqualTo(1);
    }

    @Test
    void aFailedEffectRollsBackItsLedgerRowSoTheRetryAppliesIt() {
        ProcessedEventLedger ledger = EventingFixture.ledger(jdbi);
        ProcessDeleted event = EventingFixture.event(3);

        assertThatThrownBy(() -> ledger.processOnce("flaky", event, tx -> {
            applyEffect(tx, "flaky", event);
            throw new IllegalStateException("effect failed after writing");
        })).hasMessageContaining("effect failed after writing");

        assertThat(ledgerRows("flaky", Events.eventId(event))).isZero();
        assertThat(effects("flaky", Events.eventId(event))).isZero();

        assertThat(ledger.processOnce("flaky", event, tx -> applyEffect(tx, "flaky", event))).isTrue();
        assertThat(ledger.duplicatesDropped()).isZero();
        assertThat(ledgerRows("flaky", Events.eventId(event))).isEqualTo(1);
        assertThat(effects("flaky", Events.eventId(event))).isEqualTo(1);
    }

    private static void applyEffect(Handle tx, String consumer, ProcessDeleted event) {
        tx.createUpdate("INSERT INTO ledger_effect (consumer, event_id) VALUES (:consumer, :id)")
                .bind("consumer", consumer).bind("id", Events.eventId(event)).execute();
    }

    private static int effects(String consumer, UUID eventId) {
        return count("SELECT count(*) FROM ledger_effect WHERE consumer = :consumer AND event_id = :id", consumer,
                eventId);
    }

    private static int ledgerRows(String consumer, UUID eventId) {
        return count("SELECT count(*) FROM processed_event WHERE consumer = :consumer AND event_id = :id", consumer,
                eventId);
    }

    private static int count(String sql, String consumer, UUID eventId) {
        return jdbi.withHandle(h -> h.createQuery(sql).bind("consumer", consumer).bind("id", eventId)
                .mapTo(Integer.class).one());
    }
}
