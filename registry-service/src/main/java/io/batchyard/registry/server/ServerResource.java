package io.batchyard.registry.server;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Servers that hold batch files. Credentials are write-only: they are encrypted on the way in and never returned;
 * responses say only whether a password or key is set, and the key's fingerprint.
 */
@Path("/servers")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "servers")
public class ServerResource {

    /**
     * Body of POST and PUT. On PUT an absent (null) secret keeps the stored one and an empty string removes it.
     * {@link #toString()} masks the secrets so the request can never reach a log in clear.
     */
    public record ServerRequest(
            @NotBlank @Size(max = 45) String serverType,
            @NotBlank @Size(max = 45) String serverName,
            @Size(max = 45) String serverMetainfo,
            @Size(max = 45) String loginUser,
            @Size(max = 1024) String loginPassword,
            @Size(max = 16384) String sshPrivateKey,
            @Size(max = 45) String serverIp) {

        @Override
        public String toString() {
            return "ServerRequest[serverType=" + serverType + ", serverName=" + serverName + ", loginUser=" + loginUser
                    + ", loginPassword=" + (loginPassword == null ? "null" : "***") + ", sshPrivateKey="
                    + (sshPrivateKey == null ? "null" : "***") + ", serverIp=" + serverIp + "]";
        }

        ServerDao.Fields fields() {
            return new ServerDao.Fields(serverType, serverName, serverMetainfo, loginUser, serverIp);
        }
    }

    @Inject
    Jdbi jdbi;

    @Inject
    ServerDao servers;

    @Inject
    SecretCipher cipher;

    @POST
    public Response create(@Valid @NotNull ServerRequest request) {
        ServerRow created = jdbi.inTransaction(tx -> {
            if (servers.nameTaken(tx, request.serverName(), null)) {
                throw DUPLICATE.exception("a server named '" + request.serverName() + "' already exists");
            }
            // The id is taken first because it is part of the ciphertexts' associated data.
            long id = servers.nextId(tx);
            servers.insert(tx, id, request.fields());
            storeSecrets(tx, id, request);
            return servers.find(tx, id).orElseThrow();
        });
        return Response.created(URI.create("/servers/" + created.id())).entity(created).build();
    }

    @PUT
    @Path("{id}")
    public ServerRow update(@PathParam("id") long id, @Valid @NotNull ServerRequest request) {
        return jdbi.inTransaction(tx -> {
            if (servers.nameTaken(tx, request.serverName(), id)) {
                throw DUPLICATE.exception("a server named '" + request.serverName() + "' already exists");
            }
            if (!servers.update(tx, id, request.fields())) {
                throw NOT_FOUND.exception("server " + id + " does not exist");
            }
            storeSecrets(tx, id, request);
            return servers.find(tx, id).orElseThrow();
        });
    }

    @GET
    public Page<ServerRow> list(@Valid @BeanParam PageRequest page, @QueryParam("serverType") @Size(max = 45) String type) {
        return jdbi.withHandle(h -> Page.of(servers.list(h, type, page.limit(), page.offset()), servers.count(h, type), page));
    }

    @GET
    @Path("{id}")
    public ServerRow get(@PathParam("id") long id) {
        return jdbi.withHandle(h -> servers.find(h, id)).orElseThrow(() -> NOT_FOUND.exception("server " + id + " does not exist"));
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        if (!jdbi.inTransaction(tx -> servers.delete(tx, id))) {
            throw NOT_FOUND.exception("server " + id + " does not exist");
        }
        return Response.noContent().build();
    }

    private void storeSecrets(Handle tx, long id, ServerRequest request) {
        if (request.loginPassword() != null) {
            byte[] ct = request.loginPassword().isEmpty() ? null
                    : cipher.encrypt(request.loginPassword(), SecretCipher.associatedData(id, "login_password"));
            servers.setPassword(tx, id, ct, cipher.keyId());
        }
        if (request.sshPrivateKey() != null) {
            boolean clear = request.sshPrivateKey().isEmpty();
            byte[] ct = clear ? null
                    : cipher.encrypt(request.sshPrivateKey(), SecretCipher.associatedData(id, "ssh_private_key"));
            servers.setSshKey(tx, id, ct, clear ? null : fingerprint(request.sshPrivateKey()), cipher.keyId());
        }
    }

    static String fingerprint(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.trim().getBytes(StandardCharsets.UTF_8));
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
