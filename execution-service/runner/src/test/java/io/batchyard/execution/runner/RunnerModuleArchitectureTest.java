package io.batchyard.execution.runner;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.batchyard.teststack.arch.LayeringRules;

/**
 * The runner module follows the shared layering, and its features (runner, buckets, groups, schedules, triggers,
 * deployments) meet through services. The compiler already keeps it away from the lifecycle's classes (they are not
 * on its classpath); the last rule says so for a reader of the Surefire report.
 */
@AnalyzeClasses(packages = "io.batchyard.execution", importOptions = {ImportOption.DoNotIncludeTests.class,
        ImportOption.DoNotIncludeJars.class})
class RunnerModuleArchitectureTest {
    @ArchTest static final ArchRule sql = LayeringRules.SQL_ONLY_IN_REPOSITORIES;
    @ArchTest static final ArchRule transactions = LayeringRules.ONLY_SERVICES_OPEN_TRANSACTIONS;
    @ArchTest static final ArchRule resources = LayeringRules.NO_TRANSACTIONS_IN_RESOURCES;
    @ArchTest static final ArchRule resourceMethods = LayeringRules.NO_TRANSACTIONAL_RESOURCE_METHODS;
    @ArchTest static final ArchRule resourceData = LayeringRules.RESOURCES_USE_NO_REPOSITORIES;
    @ArchTest static final ArchRule repositories = LayeringRules.REPOSITORIES_USE_NO_SERVICES;
    @ArchTest static final ArchRule features = LayeringRules.featuresMeetThroughServices("io.batchyard.execution");
    @ArchTest static final ArchRule injection = LayeringRules.CONSTRUCTOR_INJECTION;
    @ArchTest static final ArchRule cycles = LayeringRules.noPackageCycles("io.batchyard.execution");
    @ArchTest static final ArchRule lifecycleThroughItsPort = noClasses()
            .should().dependOnClassesThat().resideInAnyPackage("io.batchyard.execution.lifecycle..",
                    "io.batchyard.execution.processlog..", "io.batchyard.execution.command..")
            .because("the runner reaches runs only through RunLifecycle, so the lifecycle's rules stay in one place");
}
