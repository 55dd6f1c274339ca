package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The idempotent-consumer ledger on a real PostgreSQL: an event's effect is applied once, and only with its ledger row. */
@EventingQuarkusTest
class ProcessedEventLedgerTest {

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    TransactionFixture tx;

    @Inject
    MeterRegistry meters;

    @BeforeEach
    void tables() {
        tx.prepare();
    }

    @Test
    void aRedeliveredEventChangesNothing() {
        ProcessDeleted event = EventingFixture.event(1);
        double before = duplicates();

        boolean first = processOnce("projector", event, () -> tx.effect("projector", Events.eventId(event)));
        boolean second = processOnce("projector", event, () -> tx.effect("projector", Events.eventId(event)));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(duplicates() - before).isEqualTo(1);
        assertThat(effects("projector", Events.eventId(event))).isEqualTo(1);
        assertThat(ledgerRows("projector", Events.eventId(event))).isEqualTo(1);
    }

    @Test
    void eachConsumerKeepsItsOwnLedger() {
        ProcessDeleted event = EventingFixture.event(2);
        double before = duplicates();

        assertThat(processOnce("first", event, () -> tx.effect("first", Events.eventId(event)))).isTrue();
        assertThat(processOnce("second", event, () -> tx.effect("second", Events.eventId(event)))).isTrue();

        assertThat(duplicates() - before).isZero();
        assertThat(effects("first", Events.eventId(event))).isEqualTo(1);
        assertThat(effects("second", Events.eventId(event))).isEqualTo(1);
    }

    @Test
    void aFailedEffectRollsBackItsLedgerRowSoTheRetryAppliesIt() {
        ProcessDeleted event = EventingFixture.event(3);
        double before = duplicates();

        assertThatThrownBy(() -> processOnce("flaky", event, () -> tx.effect("flaky", Events.eventId(event))
                .chain(() -> Uni.createFrom().failure(new IllegalStateException("effect failed after writing")))))
                .hasMessageContaining("effect failed after writing");

        assertThat(ledgerRows("flaky", Events.eventId(event))).isZero();
        assertThat(effects("flaky", Events.eventId(event))).isZero();

        assertThat(processOnce("flaky", event, () -> tx.effect("flaky", Events.eventId(event)))).isTrue();
        assertThat(duplicates() - before).isZero();
        assertThat(ledgerRows("flaky", Events.eventId(event))).isEqualTo(1);
        assertThat(effects("flaky", Events.eventId(event))).isEqualTo(1);
    }

    @Test
    void theLedgerRefusesToRecordOutsideATransaction() {
        ProcessDeleted event = EventingFixture.event(4);
        assertThatThrownBy(() -> tx.withoutTransaction(() -> ledger.once("loose", event, Uni.createFrom()::voidItem)))
                .hasMessageContaining("inside the business transaction");
        assertThat(ledgerRows("loose", Events.eventId(event))).isZero();
    }

    @Test
    void aBatchAppliesEachFirstTimeEventOnceInOrderAndDropsEveryRepeat() {
        ProcessDeleted a = EventingFixture.event(11), b = EventingFixture.event(12), c = EventingFixture.event(13);
        // the same event twice in one batch: a copy, as a redelivery decodes it
        ProcessDeleted aAgain = ProcessDeleted.newBuilder().setHeader(a.getHeader())
                .setParentProcessId(a.getParentProcessId()).setDeletedProcessIds(a.getDeletedProcessIds()).build();
        double before = duplicates();
        List<UUID> order = new ArrayList<>();

        List<Boolean> first = processAll("batcher", List.of(a, b, aAgain, c), order);

        assertThat(first).containsExactly(true, true, false, true);
        assertThat(order).containsExactly(Events.eventId(a), Events.eventId(b), Events.eventId(c));
        assertThat(duplicates() - before).isEqualTo(1);
        for (ProcessDeleted event : List.of(a, b, c)) {
            assertThat(ledgerRows("batcher", Events.eventId(event))).isEqualTo(1);
            assertThat(effects("batcher", Events.eventId(event))).isEqualTo(1);
        }

        // the batch redelivered with one new event: only the new one applies
        ProcessDeleted d = EventingFixture.event(14);
        order.clear();
        assertThat(processAll("batcher", List.of(c, d, b, a), order)).containsExactly(false, true, false, false);
        assertThat(order).containsExactly(Events.eventId(d));
        assertThat(duplicates() - before).isEqualTo(4);
        for (ProcessDeleted event : List.of(a, b, c, d)) {
            assertThat(effects("batcher", Events.eventId(event))).isEqualTo(1);
        }
    }

    @Test
    void aFailedEffectRollsBackTheWholeBatchsLedgerRows() {
        ProcessDeleted a = EventingFixture.event(15), b = EventingFixture.event(16);
        assertThatThrownBy(() -> tx.inTransaction(() -> ledger.onceAll("flaky-batch", RecordBatch.of(List.of(a, b)),
                event -> event == b ? Uni.createFrom().failure(new IllegalStateException("second effect failed"))
                        : tx.effect("flaky-batch", Events.eventId(event)))))
                .hasMessageContaining("second effect failed");
        assertThat(ledgerRows("flaky-batch", Events.eventId(a))).isZero();
        assertThat(effects("flaky-batch", Events.eventId(a))).isZero();

        assertThat(processAll("flaky-batch", List.of(a, b), new ArrayList<>())).containsExactly(true, true);
        assertThat(effects("flaky-batch", Events.eventId(a))).isEqualTo(1);
        assertThat(effects("flaky-batch", Events.eventId(b))).isEqualTo(1);
    }

    @Test
    void theLedgerRefusesToRecordABatchOutsideATransaction() {
        ProcessDeleted event = EventingFixture.event(17);
        assertThatThrownBy(() -> tx.withoutTransaction(() -> ledger.onceAll("loose", RecordBatch.of(List.of(event)),
                e -> Uni.createFrom().voidItem())))
                .hasMessageContaining("inside the business transaction");
        assertThat(ledgerRows("loose", Events.eventId(event))).isZero();
    }

    /** One batch, applied in one transaction; {@code order} collects the events whose effect ran, in order. */
    private List<Boolean> processAll(String consumer, List<ProcessDeleted> events, List<UUID> order) {
        return tx.inTransaction(() -> ledger.onceAll(consumer, RecordBatch.of(events), event -> {
            order.add(Events.eventId(event));
            return tx.effect(consumer, Events.eventId(event));
        }));
    }

    /** One delivery, applied the way a consumer's service method applies it: in its own transaction. */
    private boolean processOnce(String consumer, ProcessDeleted event, Supplier<Uni<?>> effect) {
        return tx.inTransaction(() -> ledger.once(consumer, event, effect));
    }

    /** Duplicates the ledger dropped, over every consumer, as its counter says. */
    private double duplicates() {
        return meters.find(ProcessedEventLedger.DUPLICATES).counters().stream().mapToDouble(Counter::count).sum();
    }

    private long effects(String consumer, UUID eventId) {
        return tx.count("SELECT count(*) FROM test_effect WHERE consumer = $1 AND event_id = $2", consumer, eventId);
    }

    private long ledgerRows(String consumer, UUID eventId) {
        return tx.count("SELECT count(*) FROM processed_event WHERE consumer = $1 AND event_id = $2", consumer,
                eventId);
    }
}
