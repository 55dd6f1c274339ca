package io.batchyard.registry.server;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * The processes that name a server, as the server's use cases need them. Processes depend on servers (a process names
 * one, its events carry it), so the process feature implements this and servers never depend on processes. Both
 * methods join the caller's transaction.
 */
public interface ServerUsers {

    /** Live processes naming the server, by id. */
    Uni<List<Long>> liveProcessesNaming(long serverId);

    /**
     * Locks the parent of every tree with a live process naming the server, as every tree edit does first. A change
     * of the server takes these before the server's own row, the order a process being linked to it takes them in
     * too (its tree, then the server, read for its event), so neither waits for the other in a circle.
     */
    Uni<Void> lockTreesNaming(long serverId);

    /**
     * Announces again, as {@code ProcessChanged}, every tree with a live process naming the server: the events carry
     * the server's type, host and port, which have just changed.
     */
    Uni<Void> serverChanged(long serverId);
}
