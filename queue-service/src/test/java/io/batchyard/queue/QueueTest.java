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

/** A queue-service integration test against the shared real PostgreSQL and Kafka; one application boot for all. */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "queue"))
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface QueueTest {
}
