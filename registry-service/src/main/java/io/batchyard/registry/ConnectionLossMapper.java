package io.batchyard.registry;

import io.batchyard.api.ProblemMappers;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.Response;
import org.hibernate.HibernateException;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * A statement sent on a connection the database has just closed fails in the reactive client with a bare Vert.x
 * failure ("Connection is not active now, current status: CLOSED") that the shared {@link ProblemMappers} do not
 * recognise as an outage, so it would be a 500. It is the database being unavailable: answered like every dropped
 * connection, 503 with Retry-After. Every other Hibernate failure goes to the shared mapping unchanged.
 */
public class ConnectionLossMapper {

    private static final String CLOSED_CONNECTION = "Connection is not active now";

    private final ProblemMappers shared = new ProblemMappers();

    @ServerExceptionMapper
    public Response hibernate(HibernateException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().startsWith(CLOSED_CONNECTION)) {
                // The cause travels along so that the shared mapper logs what was lost.
                return shared.web(new ServiceUnavailableException((String) null, (Long) null, e));
            }
        }
        return shared.unexpected(e);
    }
}
