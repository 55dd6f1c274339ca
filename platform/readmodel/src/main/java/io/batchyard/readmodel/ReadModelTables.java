package io.batchyard.readmodel;

import io.batchyard.eventing.persistence.PlatformTables;
import io.quarkus.arc.Unremovable;
import jakarta.inject.Singleton;

/** The process read model's tables: process definitions and application access ({@code db/readmodel}). */
@Singleton
@Unremovable
public class ReadModelTables implements PlatformTables {

    @Override
    public String module() {
        return "readmodel";
    }
}
