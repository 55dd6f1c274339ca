package io.batchyard.queue;

import io.batchyard.teststack.identity.RoleMatrix;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The service answers every operation as the role matrix in its README says. */
@QueueTest
class RoleMatrixTest {

    @Test
    void everyOperationAnswersAsTheAccessPolicySays() {
        RoleMatrix.check("queue-service", Path.of("README.md"));
    }
}
