package io.batchyard.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.api.ApiException;
import jakarta.ws.rs.ProcessingException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

/** Which calls without an answer are worth another attempt. */
class FailuresTest {

    @Test
    void noConnectionAndNoAnswerInTimeAreTransient() {
        assertThat(Failures.of("queue-service", new ProcessingException(new ConnectException("Connection refused"))))
                .isInstanceOf(TransientFailure.class).hasMessageContaining("queue-service did not answer");
        assertThat(Failures.of("queue-service", new ProcessingException(new SocketTimeoutException("read"))))
                .isInstanceOf(TransientFailure.class);
    }

    @Test
    void anUnreadableAnswerIsNotTriedAgain() {
        RuntimeException sorted = Failures.of("queue-service",
                new ProcessingException(new IOException("Unexpected character ('<')")));
        assertThat(sorted).isInstanceOf(RemoteUnavailable.class).isNotInstanceOf(TransientFailure.class)
                .hasMessage("unreadable answer from queue-service");
    }

    @Test
    void anAnswerTheClientAlreadySortedComesOutAsItself() {
        ApiException refusal = new ApiException(409, 112, "No batches", "sub_pid=7");
        assertThat(Failures.of("queue-service", new ProcessingException(refusal))).isSameAs(refusal);
        TransientFailure busy = new TransientFailure("answered 503");
        assertThat(Failures.of("queue-service", new ProcessingException(busy))).isSameAs(busy);
    }
}
