package io.batchyard.registry.server;

import static io.batchyard.registry.RegistryError.SECRET_UNREADABLE;

import io.batchyard.api.ApiException;
import io.batchyard.persistence.InOrder;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Moves stored credentials to the current secrets key: every server credential and secret property sealed under
 * another key id is opened with the key of its id (the previous key) and sealed again under the current one, in one
 * transaction. Re-running it finds nothing to do. Once it has run, the previous key can be dropped.
 */
@ApplicationScoped
public class SecretRotationService {

    private static final Logger LOG = Logger.getLogger(SecretRotationService.class);
    /** How many unreadable secrets a refusal names; the count covers all of them. */
    private static final int NAMED = 20;

    private final ServerRepository servers;
    private final PropertySecretRepository properties;
    private final SecretCipher cipher;

    public SecretRotationService(ServerRepository servers, PropertySecretRepository properties, SecretCipher cipher) {
        this.servers = servers;
        this.properties = properties;
        this.cipher = cipher;
    }

    /** What a re-encryption did: the key every credential is now under and how many rows it rewrote. */
    public record ReEncryption(String keyId, int servers, int properties, int rewritten) {
    }

    /**
     * Re-encrypts every credential not under the current key. All or nothing: when one cannot be opened (its key id
     * is not configured, or its key does not open it) nothing is rewritten and the answer is 409, code 226, naming
     * where each such secret is stored.
     */
    @WithTransaction
    public Uni<ReEncryption> reEncrypt() {
        String current = cipher.keyId();
        // Properties before servers: a property change takes them in that order (its event reads the servers).
        return properties.lockNotUnder(current).chain(sealedProperties -> servers.lockSecretsNotUnder(current)
                .chain(sealedServers -> {
                    List<String> unreadable = new ArrayList<>();
                    List<PropertySecret> propertyWrites = new ArrayList<>();
                    for (PropertySecret p : sealedProperties) {
                        String aad = SecretCipher.propertyAssociatedData(p.processId(), p.key());
                        attempt(unreadable, () -> propertyWrites.add(new PropertySecret(p.processId(),
                                p.key(), reseal(p.ciphertext(), p.keyId(), aad, "property '" + p.key()
                                + "' of process " + p.processId()), current)));
                    }
                    List<ServerSecrets> serverWrites = new ArrayList<>();
                    for (ServerSecrets s : sealedServers) {
                        attempt(unreadable, () -> serverWrites.add(resealed(s, true, true)));
                    }
                    if (!unreadable.isEmpty()) {
                        throw SECRET_UNREADABLE.exception(unreadable.size() + " stored secret(s) cannot be decrypted,"
                                + " so none was re-encrypted: " + String.join("; ", unreadable.subList(0,
                                Math.min(NAMED, unreadable.size()))) + (unreadable.size() > NAMED ? "; …" : ""));
                    }
                    return InOrder.each(propertyWrites, w -> properties.reseal(w.processId(), w.key(),
                                    w.ciphertext(), w.keyId()))
                            .chain(() -> InOrder.each(serverWrites, w -> servers.setSecrets(w.serverId(),
                                    w.loginPassword(), w.sshPrivateKey(), w.keyId())))
                            .map(done -> new ReEncryption(current, serverWrites.size(), propertyWrites.size(),
                                    serverWrites.size() + propertyWrites.size()));
                }))
                .invoke(done -> {
                    if (done.rewritten() > 0) {
                        LOG.infof("re-encrypted %d server(s) and %d secret propert(ies) under secrets key id %s",
                                done.servers(), done.properties(), done.keyId());
                    }
                });
    }

    /**
     * Seals a server's ciphertexts again under the current key, before one of its secrets is replaced: the row keeps
     * one key id for both, so the one that stays must be under the key the new one gets. A secret being replaced
     * ({@code keep...} false) is left out; its new value follows in the same transaction.
     */
    Uni<Void> resealServer(long serverId, boolean keepPassword, boolean keepKey) {
        return servers.secrets(serverId).chain(found -> found
                .filter(s -> s.keyId() != null && !s.keyId().equals(cipher.keyId()))
                .map(s -> resealed(s, keepPassword, keepKey))
                .map(w -> servers.setSecrets(serverId, w.loginPassword(), w.sshPrivateKey(), w.keyId()))
                .orElse(Uni.createFrom().voidItem()));
    }

    private ServerSecrets resealed(ServerSecrets s, boolean keepPassword, boolean keepKey) {
        long id = s.serverId();
        return new ServerSecrets(id,
                keepPassword ? reseal(s.loginPassword(), s.keyId(), SecretCipher.associatedData(id,
                        SecretCipher.PASSWORD), "the login password of server " + id) : null,
                keepKey ? reseal(s.sshPrivateKey(), s.keyId(), SecretCipher.associatedData(id,
                        SecretCipher.SSH_KEY), "the SSH private key of server " + id) : null,
                cipher.keyId());
    }

    private byte[] reseal(byte[] ciphertext, String keyId, String aad, String what) {
        return ciphertext == null ? null : cipher.encrypt(cipher.decrypt(ciphertext, keyId, aad, what), aad);
    }

    /** Runs {@code step}; an unreadable secret is noted in {@code unreadable} instead of ending the pass. */
    private static void attempt(List<String> unreadable, Runnable step) {
        try {
            step.run();
        } catch (ApiException e) {
            if (e.code() != SECRET_UNREADABLE.code()) {
                throw e;
            }
            unreadable.add(e.getMessage());
        }
    }
}
