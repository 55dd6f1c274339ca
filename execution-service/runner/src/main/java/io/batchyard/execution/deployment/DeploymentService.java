package io.batchyard.execution.deployment;

import io.batchyard.api.ApiException;
import io.batchyard.api.CommonErrors;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.deployment.Deployment.Status;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The deployment queue's use cases, one transaction each. InitDeploy, HaltDeploy and TermDeploy check in a fixed
 * order and the first failing check answers; a refused call changes nothing. A deployment belongs to its process's
 * application: seeing it needs read there, and to a caller without read it does not exist (420, or for a process's
 * deployments the answer of a process that has none); requesting and moving one needs execute.
 */
@ApplicationScoped
public class DeploymentService {

    /** Longest failure reason kept; a script's error output can be long, its end says what failed. */
    static final int MAX_MESSAGE = 2000;

    private final DeploymentRepository deployments;
    private final ProcessDefinitionRepository definitions;
    private final ProcessPermission permission;
    private final DeploymentEvents events;

    public DeploymentService(DeploymentRepository deployments, ProcessDefinitionRepository definitions,
                             ProcessPermission permission, DeploymentEvents events) {
        this.deployments = deployments;
        this.definitions = definitions;
        this.permission = permission;
        this.events = events;
    }

    /** Queues a deployment of a live parent process (NOT_STARTED); the poller picks it up. */
    @WithTransaction
    public Uni<Deployment> request(Caller caller, long processId) {
        Supplier<ApiException> notDeployable = () -> ExecutionError.NOT_A_DEPLOYABLE_PROCESS.exception(
                "process " + processId + " is not a live parent process");
        return definitions.find(processId).chain(found -> {
            ProcessDefinition parent = found.filter(p -> p.isParent() && !p.deleted()).orElseThrow(notDeployable);
            return permission.require(caller, processId, Permission.EXECUTE, notDeployable)
                    .chain(() -> deployments.insert(processId,
                    parent.processTypeId(), caller.name(), Deployment.scriptFor(parent.processTypeId())))
                    .chain(d -> events.changed(d, null));
        });
    }

    /** InitDeploy: a picked deployment starts running. */
    @WithTransaction
    public Uni<Deployment> init(Caller caller, long deploymentId) {
        return checked(caller, deploymentId, d -> {
            if (d.status() == Status.RUNNING) {
                throw ExecutionError.ALREADY_DEPLOYING.exception("The process is already deploying: " + deploymentId);
            }
            refuseEnded(d);
            if (d.status() != Status.PICKED) {
                throw ExecutionError.DEPLOYMENT_NOT_PICKED.exception(
                        "The deployment has not been picked: " + deploymentId);
            }
        }, Status.RUNNING, null);
    }

    /** HaltDeploy: a running deployment succeeded. */
    @WithTransaction
    public Uni<Deployment> halt(Caller caller, long deploymentId) {
        return halt(caller, deploymentId, null);
    }

    /** HaltDeploy with a note on what the deployment did (the service's own deployment of a stand-alone parent). */
    @WithTransaction
    public Uni<Deployment> halt(Caller caller, long deploymentId, String note) {
        return checked(caller, deploymentId, DeploymentService::refuseUnlessRunning, Status.SUCCESS, clip(note));
    }

    /** TermDeploy: a running deployment failed, with an optional reason. */
    @WithTransaction
    public Uni<Deployment> term(Caller caller, long deploymentId, String reason) {
        return checked(caller, deploymentId, DeploymentService::refuseUnlessRunning, Status.FAIL, clip(reason));
    }

    /** What the poller runs: up to {@code limit} waiting deployments, now PICKED. */
    @WithTransaction
    public Uni<List<Deployment>> pick(int limit) {
        return deployments.pick(limit).chain(events::picked);
    }

    @WithSession
    public Uni<Deployment> get(Caller caller, long deploymentId) {
        return deployments.find(deploymentId).map(found -> found.orElseThrow(() -> unknown(deploymentId)))
                .call(d -> permission.require(caller, d.processId(), Permission.READ, () -> unknown(deploymentId)));
    }

    /**
     * A process's deployments, newest first. A process this service does not know has none; so, to a caller who may
     * not read it, has any other.
     */
    @WithSession
    public Uni<Page<Deployment>> list(Caller caller, long processId, Status status, PageRequest page) {
        return permission.allows(caller, processId, Permission.READ).chain(readable -> !readable
                ? Uni.createFrom().item(Page.of(List.<Deployment>of(), 0, page))
                : deployments.list(processId, status, page.limit(), page.offset()).chain(items -> deployments
                        .count(processId, status).map(total -> Page.of(items, total, page))));
    }

    /** The process's newest deployment, whatever its status; in the caller's session and transaction. */
    public Uni<Optional<Deployment>> latest(long processId) {
        return deployments.latest(processId);
    }

    /** Whether the process's newest deployment succeeded: only such a parent may be triggered automatically. */
    @WithSession
    public Uni<Boolean> latestDeploymentSucceeded(long processId) {
        return deployments.latest(processId).map(Deployment::deployed);
    }

    /** The process's newest deployment, or 404 code 2 when it was never deployed (or the caller may not read it). */
    @WithSession
    public Uni<Deployment> requireLatest(Caller caller, long processId) {
        Supplier<ApiException> none = () -> CommonErrors.NOT_FOUND.exception("process " + processId
                + " has no deployment");
        return permission.require(caller, processId, Permission.READ, none)
                .chain(() -> deployments.latest(processId)).map(found -> found.orElseThrow(none));
    }

    private interface Check {
        void refuse(Deployment current);
    }

    /**
     * Locks the row, answers 420 for an unknown id, then the caller's permission on the process, then the call's own
     * checks, and only then moves it.
     */
    private Uni<Deployment> checked(Caller caller, long deploymentId, Check check, Status to, String message) {
        return deployments.lock(deploymentId).chain(found -> {
            Deployment d = found.orElseThrow(() -> unknown(deploymentId));
            return permission.require(caller, d.processId(), Permission.EXECUTE, () -> unknown(deploymentId))
                    .chain(() -> {
                check.refuse(d);
                if (!d.status().canBecome(to)) {
                    // the checks above cover every state; this keeps the transition table the last word
                    throw ExecutionError.ILLEGAL_TRANSITION.exception(
                            "deployment " + deploymentId + " cannot go from " + d.status() + " to " + to);
                }
                return deployments.move(deploymentId, d.status(), to, message).map(Optional::orElseThrow)
                        .chain(moved -> events.changed(moved, d.status()));
            });
        });
    }

    private static void refuseUnlessRunning(Deployment d) {
        refuseEnded(d);
        if (d.status() != Status.RUNNING) {
            throw ExecutionError.NOT_DEPLOYING.exception("The process is not deploying: " + d.deploymentId());
        }
    }

    private static void refuseEnded(Deployment d) {
        if (d.status().ended()) {
            throw ExecutionError.ALREADY_DEPLOYED.exception("The process is already deployed: " + d.deploymentId());
        }
    }

    private static ApiException unknown(long deploymentId) {
        return ExecutionError.UNKNOWN_DEPLOYMENT.exception("The deployment Id is not present: " + deploymentId);
    }

    static String clip(String reason) {
        if (reason == null || reason.isBlank()) {
            return null;
        }
        String r = reason.strip();
        return r.length() <= MAX_MESSAGE ? r : "…" + r.substring(r.length() - MAX_MESSAGE + 1);
    }
}
