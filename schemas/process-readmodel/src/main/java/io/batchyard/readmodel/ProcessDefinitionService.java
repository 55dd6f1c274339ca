package io.batchyard.readmodel;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.registry.ApplicationChanged;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.schemas.Events;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.jboss.logging.Logger;

/**
 * The read model's use cases: project a registry event (idempotent through the ledger, order-safe through
 * {@code source_occurred_at}) and answer what this service currently believes about a process.
 */
@ApplicationScoped
public class ProcessDefinitionService {

    private static final Logger LOG = Logger.getLogger(ProcessDefinitionService.class);
    static final String CONSUMER = "process-readmodel";

    private final ProcessDefinitionRepository definitions;
    private final ApplicationAccessRepository access;
    private final ProcessedEventLedger ledger;

    public ProcessDefinitionService(ProcessDefinitionRepository definitions, ApplicationAccessRepository access,
                                    ProcessedEventLedger ledger) {
        this.definitions = definitions;
        this.access = access;
        this.ledger = ledger;
    }

    @WithSession
    public Uni<Optional<ProcessDefinition>> find(long processId) {
        return definitions.find(processId);
    }

    @WithSession
    public Uni<Optional<ProcessDefinitionRepository.Tree>> tree(long parentId) {
        return definitions.tree(parentId);
    }

    /** Applies one registry event; true when it changed the read model, false for a duplicate delivery. */
    @WithTransaction
    public Uni<Boolean> project(SpecificRecord event) {
        return ledger.once(CONSUMER, event, () -> effect(event));
    }

    private Uni<Void> effect(SpecificRecord event) {
        Instant at = Events.headerOf(event).getOccurredAt();
        if (event instanceof ProcessRegistered e) {
            return upsertAll(e.getParent(), e.getSteps(), at);
        }
        if (event instanceof ProcessChanged e) {
            return upsertAll(e.getParent(), e.getSteps(), at);
        }
        if (event instanceof ApplicationChanged e) {
            return access.upsert(e, at);
        }
        if (event instanceof ProcessDeleted e) {
            return definitions.markDeleted(e.getDeletedProcessIds(), at);
        }
        LOG.debugf("ignoring %s on the registry topic", event.getClass().getSimpleName());
        return Uni.createFrom().voidItem();
    }

    /** Parent first, then its steps in order: one statement at a time on the session. */
    private Uni<Void> upsertAll(io.batchyard.events.ProcessDefinition parent,
                                List<io.batchyard.events.ProcessDefinition> steps, Instant at) {
        Uni<Void> chain = definitions.upsert(ProcessDefinition.of(parent), parent.getBusDomainId(), at);
        for (io.batchyard.events.ProcessDefinition step : steps) {
            chain = chain.chain(() -> definitions.upsert(ProcessDefinition.of(step), step.getBusDomainId(), at));
        }
        return chain;
    }
}
