package io.batchyard.registry.process;

import io.batchyard.registry.Unis;
import io.batchyard.registry.server.ServerUsers;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The processes naming a server, for the server's use cases; joins the caller's transaction. A changed server is
 * announced through the trees that name it (one {@code ProcessChanged} per tree) rather than through an event of its
 * own: consumers already keep whole trees from those events, so none needs a second projection to join.
 */
@ApplicationScoped
public class ServerLinks implements ServerUsers {

    private final ProcessRepository processes;
    private final ProcessEvents events;

    public ServerLinks(ProcessRepository processes, ProcessEvents events) {
        this.processes = processes;
        this.events = events;
    }

    @Override
    public Uni<List<Long>> liveProcessesNaming(long serverId) {
        return processes.liveNaming(serverId);
    }

    @Override
    public Uni<Void> serverChanged(long serverId) {
        return processes.liveNaming(serverId)
                .chain(processes::findAll)
                .chain(rows -> {
                    // Trees in id order, each parent locked as every tree edit does, so no two writers deadlock.
                    Map<Long, List<Long>> byTree = rows.stream().collect(Collectors.groupingBy(ProcessRow::treeId,
                            TreeMap::new, Collectors.mapping(ProcessRow::processId, Collectors.toList())));
                    return Unis.sequentially(List.copyOf(byTree.entrySet()), tree -> processes.lock(tree.getKey())
                            .chain(() -> events.changed(tree.getKey(), tree.getValue())));
                })
                .replaceWithVoid();
    }
}
