package io.batchyard.execution.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.api.ApiException;
import io.batchyard.eventing.consumer.FailureClassifier;
import io.batchyard.eventing.consumer.FailureKind;
import io.batchyard.execution.ExecutionError;
import org.junit.jupiter.api.Test;

/**
 * A command that meets an unreachable queue-service is retried, not rejected; a refusal stays an answer. The failure
 * rule reads the REST error type by name, so this checks it against the real class.
 */
class CommandFailureRuleTest {

    @Test
    void anUnavailableQueueIsTransientAndARefusalIsNot() {
        ApiException unavailable = ExecutionError.QUEUE_UNAVAILABLE.exception("queue-service at x did not answer");
        assertThat(FailureClassifier.classify(unavailable).kind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureClassifier.classify(unavailable).reason()).isEqualTo("called service unavailable (HTTP 503)");

        ApiException refused = new ApiException(409, 109, "No batch to consume", "process 7 has nothing queued");
        FailureClassifier.Classification c = FailureClassifier.classify(refused);
        assertThat(c.kind()).isEqualTo(FailureKind.INVALID);
        assertThat(c.reason()).isEqualTo("refused (HTTP 409): process 7 has nothing queued");
    }
}
