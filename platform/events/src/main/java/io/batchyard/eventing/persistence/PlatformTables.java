package io.batchyard.eventing.persistence;

/**
 * The tables a platform module gives every service that includes it. A module ships its Flyway scripts in
 * {@code db/<module>} on the class path and provides one bean of this type; {@link PlatformMigrations} runs those
 * scripts in the module's own history ({@code <module>_schema_history}), next to the service's history and apart from
 * it, so a module's versions form a sequence of their own whatever the service's, and a service that takes a module up
 * later applies all of its scripts.
 */
public interface PlatformTables {

    /** The module's name: its scripts are in {@code db/<name>} on the class path. */
    String module();

    /** Where Flyway finds the module's scripts. */
    default String location() {
        return "classpath:db/" + module();
    }

    /** The table that records which of the module's scripts the database has applied. */
    default String historyTable() {
        return module() + "_schema_history";
    }
}
