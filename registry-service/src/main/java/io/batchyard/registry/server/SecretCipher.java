package io.batchyard.registry.server;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * AES-256-GCM for server credentials. The associated data binds a ciphertext to its row and field, so ciphertexts
 * cannot be swapped between servers or between password and key. Created at startup: without a valid key the service
 * refuses to start rather than store plaintext.
 */
@Startup
@ApplicationScoped
public class SecretCipher {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecureRandom random = new SecureRandom();
    private final SecretKey key;
    private final String keyId;

    public SecretCipher(@ConfigProperty(name = "batchyard.secrets.key") Optional<String> configuredKey,
                        @ConfigProperty(name = "batchyard.secrets.key-id", defaultValue = "k1") String keyId) {
        this.key = parseKey(configuredKey.orElse(null));
        this.keyId = keyId;
    }

    /** Validates the configured key; the message never contains the key itself. */
    public static SecretKey parseKey(String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalStateException("batchyard.secrets.key (env BATCHYARD_SECRETS_KEY) is not set: refusing to "
                    + "start, server credentials would otherwise be stored unencrypted. Generate one with "
                    + "'head -c 32 /dev/urandom | base64'.");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("batchyard.secrets.key is not valid base64");
        }
        if (raw.length != 32) {
            throw new IllegalStateException("batchyard.secrets.key must decode to 32 bytes (AES-256), got " + raw.length);
        }
        return new SecretKeySpec(raw, "AES");
    }

    public String keyId() {
        return keyId;
    }

    public byte[] encrypt(String plaintext, String associatedData) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    public String decrypt(byte[] ciphertext, String associatedData) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, ciphertext, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(ciphertext, NONCE_BYTES, ciphertext.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("decryption failed (wrong key, or ciphertext moved between rows)");
        }
    }

    static String associatedData(long serverId, String field) {
        return "server:" + serverId + ":" + field;
    }
}
