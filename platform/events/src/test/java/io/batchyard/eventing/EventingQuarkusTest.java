package io.batchyard.eventing;

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
 * An eventing test inside a Quarkus application: the outbox and the ledger join a Hibernate Reactive transaction
 * opened the way a service opens it. The eventing tables are created by {@link TransactionFixture}.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "eventing_tx"))
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface EventingQuarkusTest {
}
