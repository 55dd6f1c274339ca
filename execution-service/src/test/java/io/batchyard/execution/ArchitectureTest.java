package io.batchyard.execution;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.batchyard.teststack.arch.LayeringRules;

@AnalyzeClasses(packages = "io.batchyard.execution", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest static final ArchRule sql = LayeringRules.SQL_ONLY_IN_REPOSITORIES;
    @ArchTest static final ArchRule transactions = LayeringRules.ONLY_SERVICES_OPEN_TRANSACTIONS;
    @ArchTest static final ArchRule resources = LayeringRules.NO_TRANSACTIONS_IN_RESOURCES;
    @ArchTest static final ArchRule resourceMethods = LayeringRules.NO_TRANSACTIONAL_RESOURCE_METHODS;
    @ArchTest static final ArchRule resourceData = LayeringRules.RESOURCES_USE_NO_REPOSITORIES;
    @ArchTest static final ArchRule repositories = LayeringRules.REPOSITORIES_USE_NO_SERVICES;
    @ArchTest static final ArchRule features = LayeringRules.featuresMeetThroughServices("io.batchyard.execution");
    @ArchTest static final ArchRule injection = LayeringRules.CONSTRUCTOR_INJECTION;
    @ArchTest static final ArchRule cycles = LayeringRules.noPackageCycles("io.batchyard.execution");
}
