package io.batchyard.registry.server;

/**
 * A server's stored ciphertexts (null where no secret is set) and the id of the key that sealed them; read only to
 * seal them again under the current key, never to answer.
 */
public record ServerSecrets(long serverId, byte[] loginPassword, byte[] sshPrivateKey, String keyId) {
}
