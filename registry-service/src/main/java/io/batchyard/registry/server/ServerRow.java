package io.batchyard.registry.server;

import java.time.OffsetDateTime;

/** A server as stored, without its ciphertexts (those are read only where they are needed). */
public record ServerRow(long id, String serverType, String serverName, String serverMetainfo, String loginUser,
                        boolean hasLoginPassword, boolean hasSshPrivateKey, String sshKeyFingerprint, String serverIp,
                        Integer serverPort, OffsetDateTime createdAt, OffsetDateTime updatedAt) {
}
