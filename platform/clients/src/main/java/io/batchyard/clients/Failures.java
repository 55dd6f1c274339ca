package io.batchyard.clients;

import io.batchyard.api.ApiException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;

/** Sorts a call that failed before any answer arrived into a retryable failure or an unusable answer. */
public final class Failures {

    private Failures() {
    }

    /**
     * An answer the client already sorted ({@link ProblemAnswers}) comes out as itself. No connection or no answer in
     * time (the client's connect or read deadline) is transient; anything else (an answer that could not be read) is
     * not, since sending the same call again would meet it again.
     */
    public static RuntimeException of(String service, RuntimeException failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ApiException || t instanceof RemoteUnavailable) {
                return (RuntimeException) t;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException
                    || t instanceof UnknownHostException || t instanceof SocketTimeoutException
                    || t instanceof TimeoutException || t.getClass().getSimpleName().contains("Timeout")
                    || String.valueOf(t.getMessage()).contains("Connection refused")) {
                return new TransientFailure(service + " did not answer: " + t.getClass().getSimpleName(), failure);
            }
        }
        return new RemoteUnavailable("unreadable answer from " + service, failure);
    }
}
