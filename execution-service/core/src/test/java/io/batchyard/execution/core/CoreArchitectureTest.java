package io.batchyard.execution.core;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.batchyard.teststack.arch.LayeringRules;

/** execution-core follows the shared layering; it holds no SQL and opens no transaction of its own. */
@AnalyzeClasses(packages = "io.batchyard.execution", importOptions = {ImportOption.DoNotIncludeTests.class,
        ImportOption.DoNotIncludeJars.class})
class CoreArchitectureTest {
    @ArchTest static final ArchRule sql = LayeringRules.SQL_ONLY_IN_REPOSITORIES;
    @ArchTest static final ArchRule transactions = LayeringRules.ONLY_SERVICES_OPEN_TRANSACTIONS;
    @ArchTest static final ArchRule repositories = LayeringRules.REPOSITORIES_USE_NO_SERVICES;
    @ArchTest static final ArchRule injection = LayeringRules.CONSTRUCTOR_INJECTION;
    @ArchTest static final ArchRule cycles = LayeringRules.noPackageCycles("io.batchyard.execution");
}
