package io.batchyard.readmodel;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
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
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.jboss.logging.Logger;

import static io.batchyard.api.CommonErrors.NOT_FOUND;

/**
 * The read model's use cases: project a registry event (idempotent through the ledger, order-safe through
 * {@code source_occurred_at}) and answer what this service currently believes about a process. A step is recorded
 * under its parent's application, so that whatever the read model answers about a step's application is its parent's.
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

    /**
     * A process as {@code caller} may see it: its definition (properties included) needs read permission on its
     * application; without it the process answers as one this service does not know.
     */
    @WithSession
    public Uni<ProcessDefinition> get(Caller caller, long processId) {
        Supplier<ApiException> unknown = () -> NOT_FOUND.exception("process " + processId
                + " is not known to this service (yet)");
        return definitions.find(processId).chain(found -> readable(caller, processId, found, unknown));
    }

    /** A parent with its live steps, as {@code caller} may see it: read permission on the parent's application. */
    @WithSession
    public Uni<ProcessDefinitionRepository.Tree> tree(Caller caller, long parentId) {
        Supplier<ApiException> unknown = () -> NOT_FOUND.exception("parent process " + parentId
                + " is not known to this service (yet)");
        return definitions.tree(parentId).chain(found -> readable(caller, parentId, found, unknown));
    }

    private <T> Uni<T> readable(Caller caller, long processId, Optional<T> found, Supplier<ApiException> unknown) {
        if (found.isEmpty()) {
            return Uni.createFrom().failure(unknown.get());
        }
        if (caller.admin()) {
            return Uni.createFrom().item(found.get());
        }
        return access.ofProcess(processId).map(application -> {
            ApplicationGuard.require(caller, application, Permission.READ, "process " + processId, unknown);
            return found.get();
        });
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

    /**
     * Parent first, then its steps in order: one statement at a time on the session. Every step is recorded under the
     * parent's application whatever the event says of the step: who may see or run a step is decided by its parent's
     * application, so every permission read of a step (its own row) gives the parent's answer.
     */
    private Uni<Void> upsertAll(io.batchyard.events.ProcessDefinition parent,
                                List<io.batchyard.events.ProcessDefinition> steps, Instant at) {
        long application = parent.getBusDomainId();
        Uni<Void> chain = definitions.upsert(ProcessDefinition.of(parent), application, at);
        for (io.batchyard.events.ProcessDefinition step : steps) {
            chain = chain.chain(() -> definitions.upsert(ProcessDefinition.of(step), application, at));
        }
        return chain;
    }
}
