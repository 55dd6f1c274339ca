package io.batchyard.lineage.openlineage.push;

import io.batchyard.eventing.Outbox;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.EventHeader;
import io.batchyard.events.lineage.OpenLineageRunEvent;
import io.batchyard.lineage.openlineage.push.PushBacklogRepository.Pending;
import io.batchyard.persistence.InOrder;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Moves the RunEvents left undelivered in the push outbox of earlier releases ({@code openlineage_outbox}) into the
 * platform outbox, so that an upgrade loses none of them: each event once, in the order it was queued, on the topic
 * and under the key new events use, deleted from the old table in the same transaction. The old table held one row
 * per event and transport; an event already sent through one transport is recorded in that transport's ledger, so
 * its consumer skips it and only the transports that had not taken it get it.
 */
@ApplicationScoped
public class PushBacklogService {

    private static final Logger LOG = Logger.getLogger(PushBacklogService.class);
    private static final String PRODUCER = "lineage-service";
    private static final Map<String, String> CONSUMERS = Map.of(
            "http", OpenLineageDeliveryService.HTTP, "kafka", OpenLineageDeliveryService.KAFKA);

    private final PushBacklogRepository backlog;
    private final Outbox outbox;
    private final ProcessedEventLedger ledger;

    public PushBacklogService(PushBacklogRepository backlog, Outbox outbox, ProcessedEventLedger ledger) {
        this.backlog = backlog;
        this.outbox = outbox;
        this.ledger = ledger;
    }

    /** Moves every undelivered event; answers how many. Once moved, nothing is left: a second call moves nothing. */
    @WithTransaction
    public Uni<Integer> moveAll() {
        return backlog.undelivered().chain(rows -> {
            // A run's rows of one event (one per transport) carry the same payload: one event, at its first row.
            Map<String, List<Pending>> events = new LinkedHashMap<>();
            rows.forEach(r -> events.computeIfAbsent(r.runId() + " " + r.payload(), k -> new ArrayList<>()).add(r));
            List<Long> seqs = rows.stream().map(Pending::seq).toList();
            return InOrder.each(events.values(), this::move)
                    .chain(() -> backlog.delete(seqs))
                    .invoke(() -> {
                        if (!events.isEmpty()) {
                            LOG.infof("Moved %d undelivered OpenLineage events from openlineage_outbox into the "
                                    + "platform outbox", events.size());
                        }
                    })
                    .replaceWith(events.size());
        });
    }

    private Uni<Void> move(List<Pending> rows) {
        Pending first = rows.get(0);
        EventHeader header = Events.header(PRODUCER, first.instanceExecId(), null);
        header.setOccurredAt(first.createdAt().toInstant().truncatedTo(ChronoUnit.MILLIS));
        OpenLineageRunEvent event = OpenLineageRunEvent.newBuilder().setHeader(header)
                .setRunId(first.runId().toString()).setEventType(first.eventType()).setRunEvent(first.payload())
                .build();
        List<String> delivered = first.sentThrough().stream().filter(CONSUMERS::containsKey).map(CONSUMERS::get)
                .toList();
        return outbox.append(Topics.LINEAGE_OPENLINEAGE, first.runId(), event)
                .chain(() -> InOrder.each(delivered,
                        consumer -> ledger.once(consumer, event, () -> Uni.createFrom().voidItem())));
    }
}
