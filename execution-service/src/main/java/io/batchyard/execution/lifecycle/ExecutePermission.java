package io.batchyard.execution.lifecycle;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.readmodel.ApplicationAccessRepository;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Execute permission on a process's application, as registry-service announced it: what a caller needs to make
 * lifecycle calls for the process or to operate its stand-alone runs. Joins the caller's session. A process this
 * service does not know passes: the operation's own checks answer for it, so their codes stay in order. An
 * application whose permissions never arrived is refused to everyone but administrators.
 */
@ApplicationScoped
public class ExecutePermission {

    private final ProcessDefinitionRepository definitions;
    private final ApplicationAccessRepository access;

    public ExecutePermission(ProcessDefinitionRepository definitions, ApplicationAccessRepository access) {
        this.definitions = definitions;
        this.access = access;
    }

    public Uni<Void> require(Caller caller, long processId) {
        if (caller.admin()) {
            return Uni.createFrom().voidItem();
        }
        return definitions.find(processId).chain(known -> known.isEmpty() ? Uni.createFrom().voidItem()
                : requireKnown(caller, processId));
    }

    /** The same for a process whose definition the caller already holds: no second read of it. */
    public Uni<Void> requireKnown(Caller caller, long processId) {
        if (caller.admin()) {
            return Uni.createFrom().voidItem();
        }
        return access.ofProcess(processId).invoke(found -> requireGiven(caller, processId, found)).replaceWithVoid();
    }

    /**
     * The same for a process whose application's permissions the caller read with its definition (empty when they
     * never arrived): no read at all.
     */
    public void requireGiven(Caller caller, long processId, Optional<ApplicationAccess> found) {
        if (!caller.admin() && (found.isEmpty() || !found.get().allows(caller, Permission.EXECUTE))) {
            throw CommonErrors.APPLICATION_PERMISSION.exception(caller.name()
                    + " has no execute permission on the application of process " + processId);
        }
    }
}
