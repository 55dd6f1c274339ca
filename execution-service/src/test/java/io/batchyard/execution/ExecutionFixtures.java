package io.batchyard.execution;

import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What execution-service's integration tests need from the services around it: a publisher that stands in for
 * registry-service and the other producers, process trees registered the way registry-service announces them, and
 * process ids that no other test uses.
 */
public final class ExecutionFixtures implements AutoCloseable {

    /**
     * One counter for every test class of the JVM, so two tests can never pick the same process id: they all share
     * one database and one registry topic. It starts at a random thousand because the broker may be one named in the
     * environment that still holds the trees of earlier runs; one run hands out a few hundred ids.
     */
    private static final AtomicLong IDS = new AtomicLong(200_000 + (System.nanoTime() % 1000) * 1000);

    /** How long a test waits for what happens asynchronously: a consumer, the outbox relay, a poller. */
    public static final Duration WAIT = Duration.ofSeconds(30);

    public final EventPublisher publisher;

    public ExecutionFixtures(String bootstrap) {
        publisher = new EventPublisher(bootstrap);
    }

    /** Registers one tree with a publisher of its own, for a test that publishes nothing else. */
    public static ProcessRegistered register(String bootstrap, ProcessTrees tree) {
        try (ExecutionFixtures fixtures = new ExecutionFixtures(bootstrap)) {
            return fixtures.register(tree);
        }
    }

    /**
     * Publishes the tree as registry-service would and waits until execution-service's read model has every process
     * of it, so that the test's first call does not race the consumer.
     */
    public ProcessRegistered register(ProcessTrees tree) {
        return tree.register(publisher, WAIT);
    }

    /** A process id not handed out before in this JVM; as tests run one at a time, a test's ids are consecutive. */
    public static long id() {
        return IDS.incrementAndGet();
    }

    @Override
    public void close() {
        publisher.close();
    }
}
