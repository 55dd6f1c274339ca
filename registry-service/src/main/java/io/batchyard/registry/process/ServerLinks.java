package io.batchyard.registry.process;

import io.batchyard.persistence.InOrder;
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
    public Uni<Void> lockTreesNaming(long serverId) {
        return treesNaming(serverId)
                .chain(trees -> InOrder.each(trees.keySet(), processes::lock));
    }

    @Override
    public Uni<Void> serverChanged(long serverId) {
        // Read again: a tree linked since the locks were taken has committed (a link still open waits for the
        // server's row when it reads the server for its own event, and so announces the new address itself).
        return treesNaming(serverId)
                .chain(trees -> InOrder.each(trees.entrySet(), tree -> processes.lock(tree.getKey())
                        .chain(() -> events.changed(tree.getKey(), tree.getValue()))));
    }

    /** The live processes naming the server, by the parent of their tree, in parent id order (the order of locks). */
    private Uni<Map<Long, List<Long>>> treesNaming(long serverId) {
        return processes.liveNaming(serverId)
                .chain(processes::findAll)
                .map(rows -> rows.stream().collect(Collectors.groupingBy(ProcessRow::treeId, TreeMap::new,
                        Collectors.mapping(ProcessRow::processId, Collectors.toList()))));
    }
}
