package io.batchyard.registry.process;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;
import static io.batchyard.registry.RegistryError.SCRIPT_NAME_REFUSED;

import io.batchyard.api.ScriptNames;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.registry.application.AccessGuard;
import io.batchyard.registry.server.SecretCipher;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Properties of a process; each change is announced as ProcessChanged in the transaction that makes it. Secrets
 * (config groups credential and security) are write-only, like server credentials: encrypted on the way in with the
 * same cipher and key, never read back in clear, left out of events.
 */
@ApplicationScoped
public class PropertyService {

    private static final Logger LOG = Logger.getLogger(PropertyService.class);

    private final ProcessRepository processes;
    private final PropertyRepository properties;
    private final ProcessService processService;
    private final SecretCipher cipher;
    private final AccessGuard access;

    public PropertyService(ProcessRepository processes, PropertyRepository properties, ProcessService processService,
                           SecretCipher cipher, AccessGuard access) {
        this.processes = processes;
        this.properties = properties;
        this.processService = processService;
        this.cipher = cipher;
        this.access = access;
    }

    /**
     * Seals the secrets stored in clear before they were encrypted; runs once at each start and finds nothing after
     * the first. Those values were readable over the API until then: operators should treat them as disclosed.
     */
    void sealClearSecrets(@Observes StartupEvent ignored) {
        int sealed;
        try {
            sealed = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> properties.clearSecrets()
                    .chain(rows -> InOrder.each(rows, this::store).replaceWith(rows.size()))));
        } catch (Throwable e) {
            throw new IllegalStateException("could not encrypt the secret properties stored in clear", e);
        }
        if (sealed > 0) {
            LOG.warnf("encrypted %d secret propert%s stored in clear by an earlier version; their values were readable "
                    + "over the API before, rotate them", sealed, sealed == 1 ? "y" : "ies");
        }
    }

    @WithSession
    public Uni<List<PropertyRow>> list(long processId, String configGroup) {
        return access.onProcess(processId, Permission.READ).chain(() -> requireProcess(processId))
                .chain(process -> properties.list(processId, configGroup));
    }

    @WithSession
    public Uni<PropertyRow> get(long processId, String key) {
        return access.onProcess(processId, Permission.READ).chain(() -> properties.find(processId, key))
                .map(found -> found.orElseThrow(() -> noProperty(processId, key)));
    }

    @WithTransaction
    public Uni<PropertyRow> put(PropertyRow property) {
        long processId = property.processId();
        requireScriptName(property);
        return access.onProcess(processId, Permission.WRITE).chain(() -> requireProcess(processId))
                .invoke(process -> {
                    if (process.deleted()) {
                        throw DELETED.exception("process " + processId + " is deleted");
                    }
                })
                .chain(process -> store(property))
                .chain(() -> processService.announceChange(processId))
                .replaceWith(property);
    }

    @WithTransaction
    public Uni<Void> delete(long processId, String key) {
        return access.onProcess(processId, Permission.WRITE).chain(() -> requireProcess(processId))
                .chain(process -> properties.delete(processId, key))
                .invoke(deleted -> {
                    if (!deleted) {
                        throw noProperty(processId, key);
                    }
                })
                .chain(() -> processService.announceChange(processId));
    }

    /**
     * The properties of a parent and all its steps as stored (a secret's value empty), for a collaborator that has
     * checked the caller's permission on the tree already; joins the caller's session.
     */
    public Uni<List<PropertyRow>> forTree(long parentId) {
        return properties.forTree(parentId);
    }

    /** Writes {@code property} in the caller's transaction, a secret as its ciphertext only. */
    public Uni<Void> store(PropertyRow property) {
        if (!property.sensitive()) {
            return properties.upsert(property, null, null);
        }
        byte[] ct = cipher.encrypt(property.value(),
                SecretCipher.propertyAssociatedData(property.processId(), property.key()));
        return properties.upsert(new PropertyRow(property.processId(), property.configGroup(), property.key(), "",
                property.description()), ct, cipher.keyId());
    }

    /**
     * The registry cannot see the execution host's script directory, so only the name's shape is judged here; a
     * symlink leading out of the directory is refused by the runner when it launches the step.
     */
    public static void requireScriptName(PropertyRow property) {
        if (PropertyRow.namesScript(property.configGroup(), property.key())) {
            ScriptNames.whyRefused(property.value()).ifPresent(why -> {
                throw SCRIPT_NAME_REFUSED.exception("property '" + property.key() + "': " + why);
            });
        }
    }

    private Uni<ProcessRow> requireProcess(long processId) {
        return processes.find(processId)
                .map(found -> found.orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist")));
    }

    private static RuntimeException noProperty(long processId, String key) {
        return NOT_FOUND.exception("process " + processId + " has no property '" + key + "'");
    }
}
