package io.batchyard.execution.deployment;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.execution.DeploymentChanged;
import io.batchyard.execution.deployment.Deployment.Status;
import io.batchyard.persistence.InOrder;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * One {@code DeploymentChanged} per state change of a deployment, appended to the outbox in the transaction that made
 * the change, so the event is published exactly when the change is committed. Key = the parent id, so the events of
 * one process's deployments stay ordered.
 */
@ApplicationScoped
public class DeploymentEvents {

    static final String PRODUCER = "execution-service";

    private final Outbox outbox;

    public DeploymentEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /** {@code now} as it is after the change; {@code previous} is null for a deployment just requested. */
    Uni<Deployment> changed(Deployment now, Status previous) {
        return outbox.append(Topics.EXECUTION_DEPLOYMENTS, now.processId(), DeploymentChanged.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setDeploymentId(now.deploymentId()).setProcessId(now.processId())
                .setStatus(now.status().name()).setPreviousStatus(previous == null ? null : previous.name())
                .setReason(now.status() == Status.FAIL ? now.message() : null)
                .build()).replaceWith(now);
    }

    /** Every row of a pick left NOT_STARTED; one event each, in deployment order. */
    Uni<List<Deployment>> picked(List<Deployment> picked) {
        return InOrder.each(picked, d -> changed(d, Status.NOT_STARTED)).replaceWith(picked);
    }
}
