package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.application;

import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the process tests that read their events back share: a probe on the process topic, open for each test (it
 * reads the topic from its beginning, so tests match on their own ids), and an application of the test's own.
 */
abstract class ProcessEventsTestSupport {

    /** How long an event may take to reach the topic, the outbox relay included. */
    static final Duration WAIT = Duration.ofSeconds(30);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    EventProbe events;
    long app;

    @BeforeEach
    void openProbe() {
        events = EventProbe.on(bootstrap, Topics.REGISTRY_PROCESSES);
        app = application();
    }

    @AfterEach
    void closeProbe() {
        events.close();
    }
}
