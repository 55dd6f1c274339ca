package io.batchyard.registry.server;

import io.batchyard.registry.RegistryError;
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
 * AES-256-GCM for server credentials and secret properties. The associated data binds a ciphertext to its row and
 * field, so ciphertexts cannot be swapped between servers or between password and key. Every ciphertext is stored
 * with the id of the key that sealed it: new ones always get the current key ({@code batchyard.secrets.key}); a
 * previous key ({@code batchyard.secrets.previous-key}) is only ever used to open what it sealed, until
 * re-encryption ({@link SecretRotationService}) has moved every row to the current one. Created at startup: without
 * a valid key the service refuses to start rather than store plaintext.
 */
@Startup
@ApplicationScoped
public class SecretCipher {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    /** The width of the {@code secrets_key_id} columns. */
    static final int MAX_KEY_ID = 32;

    private final SecureRandom random = new SecureRandom();
    private final SecretKey key;
    private final String keyId;
    private final Optional<SecretKey> previousKey;
    private final String previousKeyId;

    public SecretCipher(@ConfigProperty(name = "batchyard.secrets.key") Optional<String> configuredKey,
                        @ConfigProperty(name = "batchyard.secrets.key-id", defaultValue = "k1") String keyId,
                        @ConfigProperty(name = "batchyard.secrets.previous-key") Optional<String> previousKey,
                        @ConfigProperty(name = "batchyard.secrets.previous-key-id") Optional<String> previousKeyId) {
        this.key = parseKey(configuredKey.orElse(null));
        this.keyId = requireKeyId("batchyard.secrets.key-id", keyId);
        this.previousKey = previousKey.filter(k -> !k.isBlank())
                .map(k -> parseKey(k, "batchyard.secrets.previous-key"));
        if (this.previousKey.isPresent()) {
            this.previousKeyId = requireKeyId("batchyard.secrets.previous-key-id", previousKeyId.orElse(null));
            if (this.previousKeyId.equals(this.keyId)) {
                throw new IllegalStateException("batchyard.secrets.previous-key-id is '" + keyId + "', the id of the "
                        + "current key: give the new key a new batchyard.secrets.key-id, so each stored ciphertext "
                        + "names the key that opens it");
            }
        } else {
            this.previousKeyId = null;
        }
    }

    /** Validates the configured key; the message never contains the key itself. */
    public static SecretKey parseKey(String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalStateException("batchyard.secrets.key (env BATCHYARD_SECRETS_KEY) is not set: refusing to "
                    + "start, server credentials would otherwise be stored unencrypted. Generate one with "
                    + "'head -c 32 /dev/urandom | base64'.");
        }
        return parseKey(base64, "batchyard.secrets.key");
    }

    private static SecretKey parseKey(String base64, String setting) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(setting + " is not valid base64");
        }
        if (raw.length != 32) {
            throw new IllegalStateException(setting + " must decode to 32 bytes (AES-256), got " + raw.length);
        }
        return new SecretKeySpec(raw, "AES");
    }

    private static String requireKeyId(String setting, String id) {
        if (id == null || id.isBlank() || id.length() > MAX_KEY_ID || !id.equals(id.trim())) {
            throw new IllegalStateException(setting + " must be set, without surrounding spaces, and at most "
                    + MAX_KEY_ID + " characters long (it is stored with every ciphertext)"
                    + (id == null || id.isBlank() ? "" : "; got '" + id + "'"));
        }
        return id;
    }

    /** The id of the current key, which every new ciphertext is stored with. */
    public String keyId() {
        return keyId;
    }

    /** The id of the previous key, when one is configured. */
    Optional<String> previousKeyId() {
        return Optional.ofNullable(previousKeyId);
    }

    /** Seals {@code plaintext} under the current key; store it with {@link #keyId()}. */
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

    /**
     * Opens a ciphertext stored with key id {@code storedKeyId}, with the key of that id. One whose id is neither
     * the current nor the previous key's, or that the key of its id does not open, is refused with code 226 naming
     * {@code what} (where it is stored, never a value).
     */
    public String decrypt(byte[] ciphertext, String storedKeyId, String associatedData, String what) {
        SecretKey opening;
        if (keyId.equals(storedKeyId)) {
            opening = key;
        } else if (previousKey.isPresent() && previousKeyId.equals(storedKeyId)) {
            opening = previousKey.get();
        } else {
            throw RegistryError.SECRET_UNREADABLE.exception(what + " is sealed under key id '" + storedKeyId
                    + "', which is neither batchyard.secrets.key-id ('" + keyId + "') nor batchyard.secrets."
                    + "previous-key-id (" + (previousKeyId == null ? "not set" : "'" + previousKeyId + "'")
                    + "): configure that key as the previous key, or set the secret again");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, opening, new GCMParameterSpec(TAG_BITS, ciphertext, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(ciphertext, NONCE_BYTES, ciphertext.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw RegistryError.SECRET_UNREADABLE.exception(what + " does not decrypt under the key configured with "
                    + "id '" + storedKeyId + "' (a different key under the same id, or a ciphertext moved between "
                    + "rows)");
        }
    }

    /** The server fields with a ciphertext, as their associated data names them. */
    static final String PASSWORD = "login_password";
    static final String SSH_KEY = "ssh_private_key";

    /** Opens a ciphertext stored with the current key's id. */
    public String decrypt(byte[] ciphertext, String associatedData) {
        return decrypt(ciphertext, keyId, associatedData, "the secret");
    }

    static String associatedData(long serverId, String field) {
        return "server:" + serverId + ":" + field;
    }

    /**
     * The associated data of a secret property's ciphertext: it binds the ciphertext to its process and key, so it
     * cannot be moved to another row and decrypted there. The property feature seals with it and re-encryption opens
     * and seals with the same, so it is written once, here.
     */
    public static String propertyAssociatedData(long processId, String key) {
        return "property:" + processId + ":" + key;
    }
}
