package io.batchyard.api;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import io.quarkus.security.AuthenticationRedirectException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The first and last word on every HTTP request, below JAX-RS. Before any resource runs it refuses what no endpoint
 * should see: a URI longer than the limit (414), headers larger than the limit (431), a declared body larger than the
 * limit (413), matrix parameters ({@code ;x} in the path, which JAX-RS would silently drop), dot segments, malformed
 * percent-encoding, and NUL characters in the path, the query or a header (400); and a request without an
 * {@code Authorization} header to anything but health, OpenAPI and metrics (401). After routing it turns what the
 * framework answers on its own (an unknown route, a failure outside JAX-RS) into problem+json as well. Every answer
 * carries a numeric {@code code}.
 *
 * <p>Vert.x itself refuses a request line longer than {@code quarkus.http.limits.max-initial-line-length}, headers
 * larger than {@code quarkus.http.limits.max-header-size} and a declared body larger than
 * {@code quarkus.http.limits.max-body-size} with an empty body, before any hook can shape the answer. The defaults
 * shipped with this library set those framework limits above Batchyard's own ({@code batchyard.http.max-uri-length},
 * {@code batchyard.http.max-header-size}, {@code batchyard.http.max-body-size}), so it is this filter that answers.
 * Malformed percent-encoding only gets here when Quarkus' own URI validation is off
 * ({@code -Dvertx.disableURIValidation=true}, read once when the HTTP layer's classes load, so it must be a JVM
 * option): every launcher of a service sets it (the local stack, the end-to-end stack, the Kubernetes config and the
 * test JVMs), and this screen then refuses the URI as problem+json like any other bad request.
 */
@ApplicationScoped
public class HttpEdge {

    private static final Logger LOG = Logger.getLogger(HttpEdge.class);

    /**
     * Health, OpenAPI and metrics live on the management interface, which this screen does not see. Nothing answers
     * them on the main port any more; asked there without a token they still get the plain 404 problem of a path that
     * does not exist rather than a 401, so that a probe or scraper pointed at the old port learns where the mistake is.
     */
    private static final List<String> OPEN_PATHS = List.of("/q/health", "/q/openapi", "/q/metrics");

    /**
     * Before Quarkus' own body-size check (order -2) and every other route but one: the audit trail's
     * ({@link #BEFORE_EDGE}), which must see the requests refused here too.
     */
    static final int ORDER = Integer.MIN_VALUE + 1;
    /** The order of a route that must run before this screen. */
    public static final int BEFORE_EDGE = Integer.MIN_VALUE;

    private final int maxUriLength;
    private final long maxBodySize;
    private final long maxHeaderSize;
    private final boolean browserSignIn;

    /**
     * @param browserSignIn whether this application signs people in through the OpenID Connect provider (the
     *                      dashboard does, as a hybrid application): a request without a bearer token may then carry
     *                      a session cookie or be a browser to send to the sign-in page, which the OIDC extension
     *                      decides; it still gets the 401 problem below from JAX-RS when it has neither
     */
    public HttpEdge(@ConfigProperty(name = "batchyard.http.max-uri-length", defaultValue = "8192") int maxUriLength,
                    @ConfigProperty(name = "batchyard.http.max-body-size", defaultValue = "10M") MemorySize maxBodySize,
                    @ConfigProperty(name = "batchyard.http.max-header-size", defaultValue = "20K")
                    MemorySize maxHeaderSize,
                    @ConfigProperty(name = "batchyard.http.browser-sign-in", defaultValue = "false") boolean browserSignIn) {
        this.browserSignIn = browserSignIn;
        this.maxUriLength = maxUriLength;
        this.maxBodySize = maxBodySize.asLongValue();
        this.maxHeaderSize = maxHeaderSize.asLongValue();
    }

    void install(@Observes Router router) {
        router.route().order(ORDER).handler(this::screen);
        router.route().order(ORDER).failureHandler(this::failed);
        for (int status : new int[] {404, 405, 406, 413, 414, 415, 431, 400, 500, 503}) {
            router.errorHandler(status, this::failed);
        }
    }

    void screen(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String uri = request.uri();
        if (uri.length() > maxUriLength) {
            reply(ctx, CommonErrors.URI_TOO_LONG, "The request URI is longer than " + maxUriLength + " characters");
            return;
        }
        long headerBytes = 0;
        for (Map.Entry<String, String> h : request.headers()) {
            headerBytes += h.getKey().length() + h.getValue().length() + 4;
        }
        if (headerBytes > maxHeaderSize) {
            reply(ctx, CommonErrors.HEADERS_TOO_LARGE, "The request headers are larger than " + maxHeaderSize + " bytes");
            return;
        }
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && declaredTooLarge(length)) {
            ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
            reply(ctx, CommonErrors.PAYLOAD_TOO_LARGE, "The request body is larger than " + maxBodySize + " bytes");
            return;
        }
        String problem = screenUri(uri);
        if (problem == null) {
            problem = screenHeaders(request);
        }
        if (problem != null) {
            reply(ctx, CommonErrors.INVALID_REQUEST, problem);
            return;
        }
        if (request.getHeader(HttpHeaders.AUTHORIZATION) == null && !isOpen(request.path()) && !browserSignIn) {
            // Deny by default, before routing: a caller without a token learns nothing about routes, media types or
            // bodies (JAX-RS would answer 415 or 404 before its own security check). A token that is present is
            // verified by the OIDC extension at the operation, with the same 401 answer when it is refused.
            ctx.response().putHeader("WWW-Authenticate", "Bearer");
            reply(ctx, CommonErrors.UNAUTHENTICATED, "This operation needs a bearer token");
            return;
        }
        ctx.next();
    }

    /** What needs no token: health, the OpenAPI document and metrics (served on the management interface). */
    public static boolean isOpen(String path) {
        for (String open : OPEN_PATHS) {
            if (path.equals(open) || path.startsWith(open + "/")) {
                return true;
            }
        }
        return false;
    }

    private boolean declaredTooLarge(String length) {
        try {
            return Long.parseLong(length.trim()) > maxBodySize;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** @return why the URI is refused, or null */
    static String screenUri(String uri) {
        int q = uri.indexOf('?');
        String rawPath = q < 0 ? uri : uri.substring(0, q);
        if (rawPath.indexOf(';') >= 0) {
            return "Matrix parameters (';' in the path) are not supported";
        }
        try {
            for (String segment : rawPath.split("/", -1)) {
                String decoded = QueryStringDecoder.decodeComponent(segment, StandardCharsets.UTF_8);
                if (decoded.indexOf('\0') >= 0) {
                    return "The path must not contain NUL characters";
                }
                // The router would resolve them ("/processes/1/properties/.." is "/processes/1"): a request acts
                // on the resource it names or on none.
                if (decoded.equals(".") || decoded.equals("..")) {
                    return "Dot segments ('.' or '..') are not allowed in the path";
                }
            }
            if (q >= 0) {
                for (Map.Entry<String, List<String>> p : new QueryStringDecoder(uri).parameters().entrySet()) {
                    if (p.getKey().indexOf('\0') >= 0 || p.getValue().stream().anyMatch(v -> v.indexOf('\0') >= 0)) {
                        return "Query parameters must not contain NUL characters";
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            return "The URI has malformed percent-encoding";
        }
        return null;
    }

    private static String screenHeaders(HttpServerRequest request) {
        for (Map.Entry<String, String> h : request.headers()) {
            if (h.getValue().indexOf('\0') >= 0) {
                return "Header values must not contain NUL characters";
            }
        }
        return null;
    }

    /** Failures that escaped JAX-RS, and statuses the router produced itself (no route, no method, ...). */
    void failed(RoutingContext ctx) {
        if (ctx.response().headWritten()) {
            ctx.response().close();
            return;
        }
        Throwable failure = ctx.failure();
        if (failure instanceof AuthenticationRedirectException) {
            // the sign-in flow's redirect (to the provider, or back without the code in the URL): Quarkus answers it
            ctx.next();
            return;
        }
        if (failure != null && Unavailability.isUnavailable(failure)) {
            reply(ctx, ProblemMappers.UNAVAILABLE);
            return;
        }
        int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
        if (failure != null && status == 500) {
            LOG.errorf(failure, "unhandled failure outside JAX-RS on %s %s", ctx.request().method(),
                    ctx.request().path());
        }
        CommonErrors err = CommonErrors.forStatus(status);
        String detail = status == 404 ? "No resource at this path" : err.title();
        reply(ctx, Problem.of(err, status, detail));
    }

    private static void reply(RoutingContext ctx, CommonErrors err, String detail) {
        reply(ctx, Problem.of(err, detail));
    }

    /** The same body and headers as the JAX-RS mappers write ({@link ProblemMappers#respond}). */
    private static void reply(RoutingContext ctx, Problem problem) {
        var response = ctx.response().setStatusCode(problem.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE);
        if (problem.status() == 503) {
            response.putHeader("Retry-After", Integer.toString(Unavailability.RETRY_AFTER_SECONDS));
        }
        response.end(Json.encode(problem));
    }
}
