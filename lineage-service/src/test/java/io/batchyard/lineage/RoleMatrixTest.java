package io.batchyard.lineage;

import io.batchyard.teststack.BatchyardTestStack;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.batchyard.teststack.identity.RoleMatrix;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The service answers every operation as the role matrix in its README says. */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class RoleMatrixTest {

    @Test
    void everyOperationAnswersAsTheAccessPolicySays() {
        RoleMatrix.check("lineage-service", Path.of("README.md"));
    }
}
