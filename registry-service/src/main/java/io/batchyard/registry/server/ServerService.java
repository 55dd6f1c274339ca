package io.batchyard.registry.server;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;

import io.batchyard.registry.Listing;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Servers that hold batch files. Credentials are write-only: they are encrypted on the way in and never returned;
 * a server as read says only whether a password or key is set, and the key's fingerprint.
 */
@ApplicationScoped
public class ServerService {

    private final ServerRepository servers;
    private final SecretCipher cipher;
    private final ServerUsers users;
    private final SecretRotationService rotation;

    public ServerService(ServerRepository servers, SecretCipher cipher, ServerUsers users,
                         SecretRotationService rotation) {
        this.servers = servers;
        this.cipher = cipher;
        this.users = users;
        this.rotation = rotation;
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

    /**
     * Changes a server. When what registry events carry of it (name, type, host, port) changes, the trees of the live
     * processes naming it are announced again in the same transaction, so consumers never keep an old address. A new
     * secret is sealed under the current key, and the one it does not replace is sealed again under it when it was
     * under the previous key (one key id per row).
     */
    @WithTransaction
    public Uni<ServerRow> update(long id, ServerRequest request) {
        return requireFreeName(request.serverName(), id)
                .chain(() -> users.lockTreesNaming(id))
                .chain(() -> servers.lockForChange(id))
                .map(before -> before.orElseThrow(() -> notFound(id)))
                .call(() -> servers.update(id, request))
                .call(() -> request.loginPassword() == null && request.sshPrivateKey() == null
                        ? Uni.createFrom().voidItem()
                        : rotation.resealServer(id, request.loginPassword() == null, request.sshPrivateKey() == null))
                .call(() -> storeSecrets(id, request))
                .chain(before -> servers.find(id).map(Optional::orElseThrow)
                        .call(after -> announced(before).equals(announced(after)) ? Uni.createFrom().voidItem()
                                : users.serverChanged(id)));
    }

    /** What registry events carry of a server; never a credential. */
    private static List<Object> announced(ServerRow s) {
        return Arrays.asList(s.serverName(), s.serverType(), s.serverIp(), s.serverPort());
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

    /** Whether the server exists; joins the caller's session, for a process that names it. */
    public Uni<Boolean> exists(long id) {
        return servers.find(id).map(Optional::isPresent);
    }

    /**
     * The servers among {@code ids}, for a process event that carries them; joins the caller's transaction. A share
     * lock: the event never carries an address a change of the server in progress is replacing.
     */
    public Uni<List<ServerRow>> forEvents(Collection<Long> ids) {
        return servers.findAllForEvents(ids);
    }

    /**
     * Deletes a server no live process names (refused with 211 otherwise). The row is locked first: a process being
     * linked to it at the same time holds a key-share lock through its foreign key, so one of the two waits and the
     * check sees the other's result.
     */
    @WithTransaction
    public Uni<Void> delete(long id) {
        return servers.lockAgainstLinks(id)
                .invoke(found -> {
                    if (found.isEmpty()) {
                        throw notFound(id);
                    }
                })
                .chain(() -> users.liveProcessesNaming(id))
                .invoke(using -> {
                    if (!using.isEmpty()) {
                        throw STILL_REFERENCED.exception("server " + id + " is still named by process(es) "
                                + using.stream().map(Objects::toString).collect(Collectors.joining(", ")));
                    }
                })
                .chain(() -> servers.delete(id))
                .replaceWithVoid();
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
                    : cipher.encrypt(request.loginPassword(), SecretCipher.associatedData(id, SecretCipher.PASSWORD));
            password = servers.setPassword(id, ct, cipher.keyId());
        }
        if (request.sshPrivateKey() == null) {
            return password;
        }
        boolean clear = request.sshPrivateKey().isEmpty();
        byte[] ct = clear ? null
                : cipher.encrypt(request.sshPrivateKey(), SecretCipher.associatedData(id, SecretCipher.SSH_KEY));
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
