package io.batchyard.registry.application;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.registry.ApplicationChanged;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Announces an application's permissions on the registry topic (key: application id), in the transaction that
 * changed them: the services that enforce execute permission keep a copy from these events.
 */
@ApplicationScoped
public class ApplicationEvents {

    private final Outbox outbox;
    private final ApplicationRepository applications;

    public ApplicationEvents(Outbox outbox, ApplicationRepository applications) {
        this.outbox = outbox;
        this.applications = applications;
    }

    Uni<Void> changed(ApplicationRow app, boolean deleted) {
        ApplicationRow.Permissions p = app.permissions();
        return outbox.append(Topics.REGISTRY_PROCESSES, "application-" + app.id(), ApplicationChanged.newBuilder()
                        .setHeader(Events.header("registry-service", null, null))
                        .setApplicationId(app.id()).setName(app.name())
                        .setOwnerUser(p.ownerUser()).setOwnerGroup(p.ownerGroup())
                        .setOwnerPermission(p.owner()).setGroupPermission(p.group()).setOthersPermission(p.others())
                        .setDeleted(deleted)
                        .build())
                .call(() -> deleted ? Uni.createFrom().voidItem() : applications.markAnnounced(app.id()));
    }
}
