package io.batchyard.execution;

import io.batchyard.teststack.identity.RoleMatrix;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The service answers every operation as the role matrix in its README says. */
@ExecutionTest
class RoleMatrixTest {

    @Test
    void everyOperationAnswersAsTheAccessPolicySays() {
        RoleMatrix.check("execution-service", Path.of("README.md"));
    }
}
