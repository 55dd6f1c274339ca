package io.batchyard.registry.server;

/**
 * A secret property's stored ciphertext and the id of the key that sealed it; read only to seal it again under the
 * current key, never to answer.
 */
public record PropertySecret(long processId, String key, byte[] ciphertext, String keyId) {
}
