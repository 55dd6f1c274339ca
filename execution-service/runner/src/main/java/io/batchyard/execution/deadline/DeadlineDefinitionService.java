package io.batchyard.execution.deadline;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.persistence.InOrder;
import io.batchyard.schemas.Events;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * Keeps {@code deadline_definition} in step with the deadlines the registry announces with each parent (idempotent
 * through the ledger, order-safe through the event's time). A parent whose deadlines were removed, or that was
 * deleted, waives its open deadlines with that reason: a promise withdrawn is not a promise missed.
 */
@ApplicationScoped
public class DeadlineDefinitionService {

    static final String CONSUMER = "execution-deadlines";
    static final String WITHDRAWN = "the process's deadlines were removed";

    private final DeadlineDefinitionRepository definitions;
    private final DeadlineRepository deadlines;
    private final DeadlineEvents events;
    private final ProcessedEventLedger ledger;
    private final ServiceClock clock;

    public DeadlineDefinitionService(DeadlineDefinitionRepository definitions, DeadlineRepository deadlines,
                                     DeadlineEvents events, ProcessedEventLedger ledger, ServiceClock clock) {
        this.definitions = definitions;
        this.deadlines = deadlines;
        this.events = events;
        this.ledger = ledger;
        this.clock = clock;
    }

    /** Applies one registry event; true when it was new, false for a duplicate delivery. */
    @WithTransaction
    public Uni<Boolean> project(SpecificRecord event) {
        return ledger.once(CONSUMER, event, () -> effect(event));
    }

    private Uni<Void> effect(SpecificRecord event) {
        Instant at = Events.headerOf(event).getOccurredAt();
        if (event instanceof ProcessRegistered e) {
            return apply(e.getParent(), at);
        }
        if (event instanceof ProcessChanged e) {
            return apply(e.getParent(), at);
        }
        if (event instanceof ProcessDeleted e) {
            return InOrder.each(e.getDeletedProcessIds(), id -> withdraw(id, at));
        }
        return Uni.createFrom().voidItem();
    }

    private Uni<Void> apply(ProcessDefinition parent, Instant at) {
        Optional<DeadlineSpec> spec = parent.getParentProcessId() == null && !parent.getDeleted()
                ? DeadlineSpec.of(parent.getDeadlines()) : Optional.empty();
        if (spec.isEmpty()) {
            return withdraw(parent.getProcessId(), at);
        }
        return definitions.upsert(parent.getProcessId(), spec.get(), clock.now(), at).replaceWithVoid();
    }

    private Uni<Void> withdraw(long processId, Instant at) {
        return definitions.remove(processId, at).chain(had -> !had ? Uni.createFrom().voidItem()
                : deadlines.waiveAll(processId, WITHDRAWN, clock.now()).chain(events::changed).replaceWithVoid());
    }
}
