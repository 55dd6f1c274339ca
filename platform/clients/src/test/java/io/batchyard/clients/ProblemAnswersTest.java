package io.batchyard.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.api.ApiException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/** What an answer other than 2xx becomes: the remote refusal as it was, or a failure retried or not. */
class ProblemAnswersTest {

    private final ProblemAnswers answers = new ProblemAnswers();

    @Test
    void aProblemWithACodeIsTheSameRefusal() {
        RuntimeException e = answers.toThrowable(Response.status(409).type("application/problem+json")
                .entity("{\"status\":409,\"code\":112,\"title\":\"No batches present for one of the sub processes\","
                        + "\"detail\":\"sub_pid=7\"}").build());
        assertThat(e).isInstanceOf(ApiException.class);
        ApiException refusal = (ApiException) e;
        assertThat(refusal.status()).isEqualTo(409);
        assertThat(refusal.code()).isEqualTo(112);
        assertThat(refusal.title()).isEqualTo("No batches present for one of the sub processes");
        assertThat(refusal.getMessage()).isEqualTo("sub_pid=7");
    }

    @Test
    void gatewayAndUnavailableAnswersAreTransient() {
        for (int status : new int[] {502, 503, 504}) {
            assertThat(answers.toThrowable(Response.status(status).build())).isInstanceOf(TransientFailure.class);
        }
    }

    @Test
    void aServerErrorARefusedIdentityOrACodelessRefusalIsUnavailableAndNotRetried() {
        for (Response r : new Response[] {Response.status(500).build(), Response.status(401).build(),
                Response.status(403).entity("{\"code\":13}").build(),
                Response.status(404).entity("not json").build()}) {
            assertThat(answers.toThrowable(r)).isInstanceOf(RemoteUnavailable.class)
                    .isNotInstanceOf(TransientFailure.class);
        }
    }
}
