package io.batchyard.clients;

import io.batchyard.api.ServiceIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * Puts this service's own bearer token on every call of an internal API (never the token of the user whose request
 * caused the call: the internal endpoints refuse it). Obtaining the token may block on the identity provider, so the
 * clients are called from worker threads.
 */
@ApplicationScoped
public class ServiceToken implements ClientRequestFilter {

    private final ServiceIdentity identity;

    public ServiceToken(ServiceIdentity identity) {
        this.identity = identity;
    }

    @Override
    public void filter(ClientRequestContext request) {
        identity.authorization().ifPresent(value -> request.getHeaders().putSingle(HttpHeaders.AUTHORIZATION, value));
    }
}
