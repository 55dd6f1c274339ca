package io.batchyard.eventing.persistence;

import io.quarkus.arc.Unremovable;
import jakarta.inject.Singleton;

/** The outbox and the processed-event ledger ({@code db/eventing}). */
@Singleton
@Unremovable
public class EventingTables implements PlatformTables {

    @Override
    public String module() {
        return "eventing";
    }
}
