package io.batchyard.lineage.registry;

/**
 * The server a process names, as the registry announced it: never a credential. {@code host} and {@code port} may be
 * null (not registered).
 */
public record RegisteredServer(long id, String name, String type, String host, Integer port) {
}
