package io.batchyard.teststack.arch;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The architecture test of platform/http (package io.batchyard.api): the HTTP conventions every service's resources
 * share.
 * It runs here because the test stack depends on that module: a test dependency back on the test stack, for
 * LayeringRules, would make a cycle Maven refuses. Here the module's classes are on the class path anyway.
 */
@AnalyzeClasses(packages = "io.batchyard.api", importOptions = ImportOption.DoNotIncludeTests.class)
class HttpArchitectureTest {
    @ArchTest static final ArchRule sql = LayeringRules.SQL_ONLY_IN_REPOSITORIES;
    @ArchTest static final ArchRule transactions = LayeringRules.ONLY_SERVICES_OPEN_TRANSACTIONS;
    @ArchTest static final ArchRule resources = LayeringRules.NO_TRANSACTIONS_IN_RESOURCES;
    @ArchTest static final ArchRule resourceMethods = LayeringRules.NO_TRANSACTIONAL_RESOURCE_METHODS;
    @ArchTest static final ArchRule resourceData = LayeringRules.RESOURCES_USE_NO_REPOSITORIES;
    @ArchTest static final ArchRule repositories = LayeringRules.REPOSITORIES_USE_NO_SERVICES;
    @ArchTest static final ArchRule features = LayeringRules.featuresMeetThroughServices("io.batchyard.api");
    @ArchTest static final ArchRule injection = LayeringRules.CONSTRUCTOR_INJECTION;
    @ArchTest static final ArchRule cycles = LayeringRules.noPackageCycles("io.batchyard.api");
}
