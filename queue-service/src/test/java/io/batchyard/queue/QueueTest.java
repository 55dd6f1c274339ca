package io.batchyard.queue;

import io.batchyard.teststack.BatchyardTestStack;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A queue-service integration test against the shared real PostgreSQL, Kafka and S3 store; one application boot for
 * all.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = {@ResourceArg(name = "database", value = "queue"),
            // compaction tests run on both stores: the shared S3 store is handed to batchyard.compaction.s3.*
            @ResourceArg(name = "s3-config-prefix", value = "batchyard.compaction.s3")})
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface QueueTest {
}
