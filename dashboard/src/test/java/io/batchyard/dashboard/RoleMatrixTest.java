package io.batchyard.dashboard;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.identity.RoleMatrix;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The dashboard answers every operation as the role matrix in its README says: the page, its stream and every panel
 * need a token with the viewer role or above.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "dashboard"))
class RoleMatrixTest {

    @Test
    void everyOperationAnswersAsTheAccessPolicySays() {
        RoleMatrix.check("dashboard", Path.of("README.md"));
    }
}
