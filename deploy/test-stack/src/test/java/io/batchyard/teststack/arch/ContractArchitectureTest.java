package io.batchyard.teststack.arch;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The architecture test of schemas/contract: the Avro events (io.batchyard.events) and the error codes and serdes
 * (io.batchyard.schemas) every module shares.
 * It runs here because the test stack depends on that module: a test dependency back on the test stack, for
 * LayeringRules, would make a cycle Maven refuses. Here the module's classes are on the class path anyway.
 */
@AnalyzeClasses(packages = {"io.batchyard.events", "io.batchyard.schemas"},
        importOptions = ImportOption.DoNotIncludeTests.class)
class ContractArchitectureTest {
    @ArchTest static final ArchRule sql = LayeringRules.SQL_ONLY_IN_REPOSITORIES;
    @ArchTest static final ArchRule transactions = LayeringRules.ONLY_SERVICES_OPEN_TRANSACTIONS;
    @ArchTest static final ArchRule resources = LayeringRules.NO_TRANSACTIONS_IN_RESOURCES;
    @ArchTest static final ArchRule resourceMethods = LayeringRules.NO_TRANSACTIONAL_RESOURCE_METHODS;
    @ArchTest static final ArchRule resourceData = LayeringRules.RESOURCES_USE_NO_REPOSITORIES;
    @ArchTest static final ArchRule repositories = LayeringRules.REPOSITORIES_USE_NO_SERVICES;
    @ArchTest static final ArchRule features = LayeringRules.featuresMeetThroughServices("io.batchyard");
    @ArchTest static final ArchRule injection = LayeringRules.CONSTRUCTOR_INJECTION;
    @ArchTest static final ArchRule cycles = LayeringRules.noPackageCycles("io.batchyard");
}
