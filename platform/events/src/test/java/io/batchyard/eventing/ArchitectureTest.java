package io.batchyard.eventing;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.batchyard.teststack.arch.LayeringRules;
import java.util.Map;

/** The outbox, its relay and the consumer runtime follow the same layering as the services. */
@AnalyzeClasses(packages = "io.batchyard.eventing", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest static final ArchRule sql = LayeringRules.sqlOnlyInRepositories(Map.of(
            "io.batchyard.eventing.OutboxRelay",
            "it keeps the leader's own connection (advisory lock, LISTEN) that OutboxRepository's statements run on",
            "io.batchyard.eventing.OutboxGauges",
            "a gauge is read outside any caller's session, so it hands the pool to OutboxRepository",
            "io.batchyard.eventing.Retention",
            "a scheduled clean-up outside any caller's session: it hands the pool to the repositories",
            "io.batchyard.eventing.Transactions",
            "it hands the caller's session to the outbox and ledger writes, after checking it is in a transaction",
            "io.batchyard.eventing.persistence.PlatformMigrations",
            "it moves Flyway history rows on Flyway's JDBC connection, before the application has sessions"));
    @ArchTest static final ArchRule transactions = LayeringRules.ONLY_SERVICES_OPEN_TRANSACTIONS;
    @ArchTest static final ArchRule resources = LayeringRules.NO_TRANSACTIONS_IN_RESOURCES;
    @ArchTest static final ArchRule resourceMethods = LayeringRules.NO_TRANSACTIONAL_RESOURCE_METHODS;
    @ArchTest static final ArchRule resourceData = LayeringRules.RESOURCES_USE_NO_REPOSITORIES;
    @ArchTest static final ArchRule repositories = LayeringRules.REPOSITORIES_USE_NO_SERVICES;
    @ArchTest static final ArchRule features = LayeringRules.featuresMeetThroughServices("io.batchyard.eventing");
    @ArchTest static final ArchRule injection = LayeringRules.CONSTRUCTOR_INJECTION;
    @ArchTest static final ArchRule cycles = LayeringRules.noPackageCycles("io.batchyard.eventing");
}
