package io.batchyard.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.api.ApiException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;
import org.jboss.logging.Logger;

/**
 * What an internal API's answer other than 2xx becomes: a problem+json refusal with a Batchyard code (4xx) reaches the
 * caller as the same {@link ApiException} the remote service raised; 502, 503 and 504 are a {@link TransientFailure}
 * (retried); anything else, a refused service identity included, is {@link RemoteUnavailable}.
 */
public class ProblemAnswers implements ResponseExceptionMapper<RuntimeException> {

    private static final Logger LOG = Logger.getLogger(ProblemAnswers.class);
    /** Reads only the problem's own fields, whatever the service's JSON settings. */
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public RuntimeException toThrowable(Response response) {
        int status = response.getStatus();
        if (status == 502 || status == 503 || status == 504) {
            return new TransientFailure("answered " + status);
        }
        if (status == 401 || status == 403) {
            // Not the caller's fault and not fixed by the caller: this service's own identity is missing or lacks the
            // service role. Operators see it in the log; callers get a retryable answer.
            LOG.errorf("an internal API refused this service's identity with %d: check its service identity"
                    + " (quarkus.oidc-client.* or batchyard.service.token)", status);
            return new RemoteUnavailable("refused this service's identity (" + status + ")");
        }
        if (status >= 400 && status < 500) {
            JsonNode problem = problem(response);
            if (problem.hasNonNull("code")) {
                return new ApiException(status, problem.get("code").asInt(), problem.path("title").asText(),
                        problem.path("detail").asText());
            }
        }
        return new RemoteUnavailable("answered " + status);
    }

    private static JsonNode problem(Response response) {
        try {
            return JSON.readTree(response.readEntity(String.class));
        } catch (Exception e) {
            return JSON.createObjectNode();
        }
    }
}
