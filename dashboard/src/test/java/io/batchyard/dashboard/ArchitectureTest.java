package io.batchyard.dashboard;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.batchyard.teststack.arch.LayeringRules;

/** Resources map HTTP and call the view or the panel service; constructor injection; no package cycles. */
@AnalyzeClasses(packages = "io.batchyard.dashboard", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest static final ArchRule injection = LayeringRules.CONSTRUCTOR_INJECTION;
    @ArchTest static final ArchRule cycles = LayeringRules.noPackageCycles("io.batchyard.dashboard");
}
