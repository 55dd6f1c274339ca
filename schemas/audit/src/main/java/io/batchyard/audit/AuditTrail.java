package io.batchyard.audit;

import io.batchyard.api.HttpEdge;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records every state-changing HTTP call once its answer is out: who (the token's subject, or anonymous), what (the
 * method and path), when, and the status. It hooks in below JAX-RS, ahead of the edge screen, so that calls refused
 * before any resource ran (no token: 401; a bad URI: 400) are recorded like the others. Reads (GET, HEAD, OPTIONS)
 * and health, OpenAPI and metrics are not audited.
 */
@ApplicationScoped
public class AuditTrail {

    private static final Set<HttpMethod> CHANGES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
            HttpMethod.DELETE);
    /** Paths whose first segment names a process by its id. */
    private static final Pattern PROCESS_PATH = Pattern.compile("^/(?:processes|jobs|steps)/(\\d{1,18})(?:/.*)?$");
    private static final String REQUEST_ID = "X-Request-Id";

    private final AuditService audit;

    public AuditTrail(AuditService audit) {
        this.audit = audit;
    }

    void install(@Observes Router router) {
        router.route().order(HttpEdge.BEFORE_EDGE).handler(this::watch);
    }

    void watch(RoutingContext ctx) {
        String path = ctx.request().path();
        if (CHANGES.contains(ctx.request().method()) && path != null && !HttpEdge.isOpen(path)) {
            String action = ctx.request().method().name() + " " + path;
            ctx.addEndHandler(ended -> subject(ctx).subscribe().with(subject -> audit.recordAfterAnswer(
                    AuditEntry.of(subject, AuditEntry.Channel.HTTP, action, processId(path),
                            String.valueOf(ctx.response().getStatusCode()), null,
                            ctx.request().getHeader(REQUEST_ID)))));
        }
        ctx.next();
    }

    /**
     * The caller as authentication established it. Authentication is lazy (it happens when an operation's role check
     * asks), so the identity may be known only through the deferred one, which is memoised: reading it again costs
     * nothing, and for a request that never got that far it resolves to anonymous (or fails for a refused token).
     */
    @SuppressWarnings("unchecked")
    static Uni<String> subject(RoutingContext ctx) {
        if (ctx.user() instanceof QuarkusHttpUser user) {
            return Uni.createFrom().item(nameOf(user.getSecurityIdentity()));
        }
        Object deferred = ctx.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        if (deferred instanceof Uni<?> identity) {
            return ((Uni<SecurityIdentity>) identity).map(AuditTrail::nameOf)
                    .onFailure().recoverWithItem(AuditEntry.ANONYMOUS);
        }
        return Uni.createFrom().item(AuditEntry.ANONYMOUS);
    }

    private static String nameOf(SecurityIdentity identity) {
        return identity == null || identity.isAnonymous() ? AuditEntry.ANONYMOUS : identity.getPrincipal().getName();
    }

    static Long processId(String path) {
        Matcher m = PROCESS_PATH.matcher(path);
        return m.matches() ? Long.valueOf(m.group(1)) : null;
    }
}
