package io.batchyard.audit;

import io.batchyard.eventing.persistence.PlatformTables;
import io.quarkus.arc.Unremovable;
import jakarta.inject.Singleton;

/** The audit trail's table ({@code db/audit}). */
@Singleton
@Unremovable
public class AuditTables implements PlatformTables {

    @Override
    public String module() {
        return "audit";
    }
}
