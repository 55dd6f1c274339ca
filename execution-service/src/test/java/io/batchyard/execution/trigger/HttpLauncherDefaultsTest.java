package io.batchyard.execution.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubOrchestrator;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The HTTP launcher hook as a deployment gets it when it sets only the kind and the URL: the default timeout
 * (PT30S), attempts (3) and back-off (PT1S) make a Fault Tolerance guard that is accepted, and a call the stub
 * orchestrator refuses once is retried after the back-off and launches.
 */
@ExecutionTest
class HttpLauncherDefaultsTest {

    /** A parent id no other test's launch request uses. */
    private static final long PARENT = 9_100_000_041L;

    @Inject
    LaunchHookConfig configured;

    /** The configured hook's URL (the stub orchestrator), every other setting at its README default. */
    private ExternalLauncher withDefaults() {
        String url = configured.url().orElseThrow();
        return new ExternalLauncher(new LaunchHookConfig() {
            public Kind kind() {
                return Kind.HTTP;
            }

            public Optional<String> url() {
                return Optional.of(url);
            }

            public Optional<String> command() {
                return Optional.empty();
            }

            public Optional<List<String>> args() {
                return Optional.empty();
            }

            public Duration timeout() {
                return Duration.ofSeconds(30);
            }

            public int attempts() {
                return 3;
            }

            public Duration backoff() {
                return Duration.ofSeconds(1);
            }
        });
    }

    @Test
    void theHttpHookWithItsDefaultSettingsRetriesAnUnavailableOrchestratorThenLaunches() {
        StubOrchestrator.failNext(PARENT, 1);
        LaunchRequest request = new LaunchRequest(PARENT, 3, "airflow", "event-defaults", "batch-55", 9,
                List.of(new LaunchRequest.Batch(7, 55, 40L, 42, null)));

        assertThat(withDefaults().launch(request).await().atMost(Duration.ofSeconds(60))).isEmpty();
        assertThat(StubOrchestrator.calls(PARENT)).hasSize(2).allSatisfy(body -> assertThat(body)
                .contains("\"processId\":" + PARENT, "\"eventId\":\"event-defaults\""));
    }
}
