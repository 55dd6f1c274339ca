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
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records every state-changing HTTP call once its answer is out: who (the token's subject, or anonymous), what (the
 * method and path), when, and the status. It hooks in below JAX-RS, ahead of the edge screen, so that calls refused
 * before any resource ran (no token: 401; a bad URI: 400) are seen like the others; {@link AuditService} counts those
 * refused before anyone was identified instead of writing them. Reads (GET, HEAD, OPTIONS) and health, OpenAPI and
 * metrics are not audited.
 *
 * <p>The caller's {@code X-Request-Id} becomes the entry's correlation id when it is an id: at most 128 characters of
 * {@code A-Z a-z 0-9 . _ : -}. Anything else (a 20 KB header, spaces, quotes) is not stored: the entry gets a generated
 * id instead, which the answer carries in its own {@code X-Request-Id} header so the caller can still find it.
 */
@ApplicationScoped
public class AuditTrail {

    private static final Set<HttpMethod> CHANGES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
            HttpMethod.DELETE);
    /** Paths whose first segment names a process by its id. */
    private static final Pattern PROCESS_PATH = Pattern.compile("^/(?:processes|jobs|steps)/(\\d{1,18})(?:/.*)?$");
    static final String REQUEST_ID = "X-Request-Id";
    static final int MAX_REQUEST_ID = 128;
    private static final Pattern REQUEST_ID_FORM = Pattern.compile("[A-Za-z0-9._:-]+");

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
            String requestId = requestId(ctx);
            ctx.addEndHandler(ended -> subject(ctx).subscribe().with(subject -> audit.recordAfterAnswer(
                    AuditEntry.of(subject, AuditEntry.Channel.HTTP, action, processId(path),
                            String.valueOf(ctx.response().getStatusCode()), null, requestId))));
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

    /**
     * The call's correlation id: the caller's {@code X-Request-Id} when it has the form of one, none when it sent none,
     * else a generated one that the answer names.
     */
    static String requestId(RoutingContext ctx) {
        String given = ctx.request().getHeader(REQUEST_ID);
        if (given == null || isRequestId(given)) {
            return given;
        }
        String generated = UUID.randomUUID().toString();
        ctx.response().headers().set(REQUEST_ID, generated);
        return generated;
    }

    static boolean isRequestId(String id) {
        return !id.isEmpty() && id.length() <= MAX_REQUEST_ID && REQUEST_ID_FORM.matcher(id).matches();
    }

    static Long processId(String path) {
        Matcher m = PROCESS_PATH.matcher(path);
        return m.matches() ? Long.valueOf(m.group(1)) : null;
    }
}
