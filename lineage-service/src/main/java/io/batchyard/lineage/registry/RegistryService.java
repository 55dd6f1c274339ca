package io.batchyard.lineage.registry;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.ProcessServer;
import io.batchyard.events.registry.ApplicationChanged;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.persistence.InOrder;
import io.batchyard.schemas.Events;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * Which application a process belongs to and which server it names, projected from the registry topic (each event
 * applied once through the ledger), so OpenLineage can name a run's namespaces after them. A deleted process keeps its application: its past
 * runs are still named by it.
 */
@ApplicationScoped
public class RegistryService {

    public static final String CONSUMER = "lineage-registry";

    private final RegistryRepository registry;
    private final ProcessedEventLedger ledger;

    public RegistryService(RegistryRepository registry, ProcessedEventLedger ledger) {
        this.registry = registry;
        this.ledger = ledger;
    }

    /**
     * The name of the application of the process, else of its parent ({@code parentProcessId} may be null); empty
     * when the registry has not announced it. Joins the caller's session.
     */
    public Uni<Optional<String>> applicationName(long processId, Long parentProcessId) {
        return registry.applicationName(processId, parentProcessId);
    }

    /**
     * The server the process names, else the one its parent names ({@code parentProcessId} may be null); empty when
     * neither names one. Joins the caller's session.
     */
    public Uni<Optional<RegisteredServer>> server(long processId, Long parentProcessId) {
        return registry.server(processId, parentProcessId);
    }

    @WithTransaction
    public Uni<Void> apply(SpecificRecord event) {
        return ledger.once(CONSUMER, event, () -> project(event)).replaceWithVoid();
    }

    private Uni<Void> project(SpecificRecord event) {
        Instant at = Events.headerOf(event).getOccurredAt();
        if (event instanceof ProcessRegistered e) {
            return processes(e.getParent(), e.getSteps(), at);
        }
        if (event instanceof ProcessChanged e) {
            return processes(e.getParent(), e.getSteps(), at);
        }
        if (event instanceof ApplicationChanged e) {
            return registry.upsertApplication(e.getApplicationId(), e.getName(), e.getDeleted(), at);
        }
        return Uni.createFrom().voidItem();
    }

    private static RegisteredServer server(ProcessDefinition d) {
        ProcessServer s = d.getServer();
        return s == null ? null : new RegisteredServer(s.getServerId(), s.getName(), s.getType(), s.getHost(), s.getPort());
    }

    /** One statement at a time on the session: parent, then its steps. */
    private Uni<Void> processes(ProcessDefinition parent, List<ProcessDefinition> steps, Instant at) {
        List<ProcessDefinition> all = new ArrayList<>(steps.size() + 1);
        all.add(parent);
        all.addAll(steps);
        return InOrder.each(all, d -> registry.upsertProcess(d.getProcessId(), d.getBusDomainId(), server(d), at));
    }
}
