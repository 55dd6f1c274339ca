package io.batchyard.api;

import io.quarkus.oidc.client.OidcClients;
import io.quarkus.oidc.client.runtime.TokensHelper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This service's own identity when it calls another Batchyard service's internal endpoint: a bearer token with the
 * {@link Roles#SERVICE} role, never the token of the user whose request caused the call (a user token is refused
 * there). Two sources, chosen by configuration:
 * <ul>
 *   <li>{@code quarkus.oidc-client.auth-server-url} set: the service signs in to that OpenID Connect provider itself
 *   ({@code quarkus.oidc-client.client-id} and {@code .credentials.secret}, client-credentials grant). The provider's
 *   tokens expire, so the current one is kept and a new one is obtained when it is about to expire;</li>
 *   <li>otherwise {@code batchyard.service.token}, a token the deployment obtained or signed for the service (a stack
 *   that trusts a local signing key mints a long-lived one).</li>
 * </ul>
 */
@ApplicationScoped
public class ServiceIdentity {

    private final Optional<String> staticToken;
    private final boolean fromProvider;
    private final Instance<OidcClients> clients;
    private final Duration timeout;
    /** The provider's current token and when to renew it (the OIDC client extension's own bookkeeping). */
    private final TokensHelper tokens = new TokensHelper();

    public ServiceIdentity(@ConfigProperty(name = "batchyard.service.token") Optional<String> token,
                           @ConfigProperty(name = "quarkus.oidc-client.auth-server-url") Optional<String> provider,
                           @ConfigProperty(name = "batchyard.service.token-timeout", defaultValue = "PT10S") Duration timeout,
                           Instance<OidcClients> clients) {
        this.staticToken = token.filter(t -> !t.isBlank());
        this.fromProvider = provider.filter(url -> !url.isBlank()).isPresent();
        this.clients = clients;
        this.timeout = timeout;
    }

    /**
     * The {@code Authorization} header value, or empty when no service identity is configured. Signing in to the
     * provider blocks: call this from a worker thread, never from the event loop. When the provider cannot be reached
     * or refuses the service's credentials, the caller's request fails as temporarily unavailable (503).
     */
    public Optional<String> authorization() {
        if (!fromProvider) {
            return staticToken.map(t -> "Bearer " + t);
        }
        try {
            String accessToken = tokens.getTokens(clients.get().getClient()).await().atMost(timeout).getAccessToken();
            return Optional.of("Bearer " + accessToken);
        } catch (RuntimeException e) {
            throw CommonErrors.UNAVAILABLE.exception("this service could not obtain its own token from its OpenID "
                    + "Connect provider: " + e.getClass().getSimpleName());
        }
    }
}
