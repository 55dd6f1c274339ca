package io.batchyard.registry;

import io.batchyard.teststack.identity.RoleMatrix;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The service answers every operation as the role matrix in its README says. */
@RegistryTest
class RoleMatrixTest {

    @Test
    void everyOperationAnswersAsTheAccessPolicySays() {
        RoleMatrix.check("registry-service", Path.of("README.md"));
    }
}
