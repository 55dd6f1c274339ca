package io.batchyard.registry.server;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;

import io.batchyard.registry.Listing;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;

/**
 * Servers that hold batch files. Credentials are write-only: they are encrypted on the way in and never returned;
 * a server as read says only whether a password or key is set, and the key's fingerprint.
 */
@ApplicationScoped
public class ServerService {

    private final ServerRepository servers;
    private final SecretCipher cipher;

    public ServerService(ServerRepository servers, SecretCipher cipher) {
        this.servers = servers;
        this.cipher = cipher;
    }

    @WithTransaction
    public Uni<ServerRow> create(ServerRequest request) {
        return requireFreeName(request.serverName(), null)
                // The id is taken first because it is part of the ciphertexts' associated data.
                .chain(servers::nextId)
                .call(id -> servers.insert(id, request))
                .call(id -> storeSecrets(id, request))
                .chain(servers::find)
                .map(Optional::orElseThrow);
    }

    @WithTransaction
    public Uni<ServerRow> update(long id, ServerRequest request) {
        return requireFreeName(request.serverName(), id)
                .chain(() -> servers.update(id, request))
                .invoke(updated -> {
                    if (!updated) {
                        throw notFound(id);
                    }
                })
                .chain(() -> storeSecrets(id, request))
                .chain(() -> servers.find(id))
                .map(Optional::orElseThrow);
    }

    @WithSession
    public Uni<Listing<ServerRow>> list(String type, int limit, int offset) {
        return servers.list(type, limit, offset)
                .chain(items -> servers.count(type).map(total -> new Listing<>(items, total)));
    }

    @WithSession
    public Uni<ServerRow> get(long id) {
        return servers.find(id).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    @WithTransaction
    public Uni<Void> delete(long id) {
        return servers.delete(id).invoke(deleted -> {
            if (!deleted) {
                throw notFound(id);
            }
        }).replaceWithVoid();
    }

    private Uni<Void> requireFreeName(String name, Long exceptId) {
        return servers.nameTaken(name, exceptId).invoke(taken -> {
            if (taken) {
                throw DUPLICATE.exception("a server named '" + name + "' already exists");
            }
        }).replaceWithVoid();
    }

    private Uni<Void> storeSecrets(long id, ServerRequest request) {
        Uni<Void> password = Uni.createFrom().voidItem();
        if (request.loginPassword() != null) {
            byte[] ct = request.loginPassword().isEmpty() ? null
                    : cipher.encrypt(request.loginPassword(), SecretCipher.associatedData(id, "login_password"));
            password = servers.setPassword(id, ct, cipher.keyId());
        }
        if (request.sshPrivateKey() == null) {
            return password;
        }
        boolean clear = request.sshPrivateKey().isEmpty();
        byte[] ct = clear ? null
                : cipher.encrypt(request.sshPrivateKey(), SecretCipher.associatedData(id, "ssh_private_key"));
        return password.chain(() -> servers.setSshKey(id, ct, clear ? null : fingerprint(request.sshPrivateKey()),
                cipher.keyId()));
    }

    static String fingerprint(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.trim().getBytes(StandardCharsets.UTF_8));
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RuntimeException notFound(long id) {
        return NOT_FOUND.exception("server " + id + " does not exist");
    }
}
