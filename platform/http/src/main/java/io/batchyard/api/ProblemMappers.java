package io.batchyard.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Turns every failure into problem+json; unknown failures become a 500 whose body reveals nothing internal. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    /** What every 503 says, whether JAX-RS or the HTTP edge answers it. */
    static final Problem UNAVAILABLE = Problem.of(CommonErrors.UNAVAILABLE,
            "A dependency of the service is unavailable; retry later");

    @ServerExceptionMapper
    public Response api(ApiException e) {
        return respond(new Problem(Problem.type(e.code()), e.title(), e.status(), e.getMessage(), null, e.code(), null));
    }

    /**
     * No identity, or a bearer token that does not verify (bad signature, wrong issuer, expired). The answer says
     * which of the two it is, never why a token failed in detail: that helps an attacker more than a caller.
     */
    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthenticated(RuntimeException e) {
        String detail = e instanceof AuthenticationFailedException
                ? "The bearer token was not accepted"
                : "This operation needs a bearer token";
        return Response.fromResponse(respond(Problem.of(CommonErrors.UNAUTHENTICATED, detail)))
                .header("WWW-Authenticate", "Bearer").build();
    }

    /** An identity whose roles or application permissions do not cover the operation. */
    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(Problem.of(CommonErrors.FORBIDDEN, e.getMessage() != null && !e.getMessage().isBlank()
                ? e.getMessage() : "Your roles do not allow this operation"));
    }

    /** A path, query or header value that cannot be read as the parameter's type ("1.5" or "abc" for an id). */
    @ServerExceptionMapper
    public Response number(NumberFormatException e) {
        return invalid("A parameter is not a valid number");
    }

    @ServerExceptionMapper
    public Response validation(ConstraintViolationException e) {
        List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                .map(v -> new Problem.FieldError(field(v), v.getMessage()))
                .sorted(Comparator.comparing(Problem.FieldError::field))
                .toList();
        CommonErrors err = CommonErrors.INVALID_REQUEST;
        return respond(new Problem(Problem.type(err.code()), err.title(), err.status(),
                "The request has " + errors.size() + " invalid field(s)", null, err.code(), errors));
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        CommonErrors err = CommonErrors.INVALID_REQUEST;
        // Jackson's original message may quote input; keep only the location.
        String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr();
        return respond(Problem.of(err, "Malformed JSON body" + where));
    }

    /**
     * A well-formed body of the wrong shape (an object where a string belongs, an array for an object). Quarkus ships
     * its own mapper for this exact type, which would answer plain JSON; this more specific one keeps problem+json.
     */
    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER - 100)
    public Response mismatched(com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
        CommonErrors err = CommonErrors.INVALID_REQUEST;
        String field = e.getPath() == null || e.getPath().isEmpty() ? "the body"
                : "field '" + e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
                        : "[" + r.getIndex() + "]").collect(java.util.stream.Collectors.joining(".")) + "'";
        return respond(Problem.of(err, "Wrong type of value for " + field));
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status == 503) {
            return unavailable(e);
        }
        if (status >= 500) {
            return unexpected(e.getCause() != null ? e.getCause() : e);
        }
        if (status == 404 && unreadableParameter(e)) {
            // JAX-RS answers 404 when a path or query value does not convert ("1.5" for a long, an unknown enum
            // constant): the resource exists, the value is wrong.
            return invalid("A parameter has a value of the wrong type");
        }
        CommonErrors err = CommonErrors.forStatus(status);
        String title = e.getResponse().getStatusInfo().getReasonPhrase();
        return respond(new Problem(Problem.type(err.code()), title, status, safeDetail(e), null, err.code(), null));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (e instanceof WebApplicationException wae && wae.getResponse().getStatus() < 500) {
            return web(wae);
        }
        if (Unavailability.isUnavailable(e)) {
            return unavailable(e);
        }
        Response constraint = databaseConstraint(e);
        return constraint != null ? constraint : internal(e);
    }

    private static boolean unreadableParameter(WebApplicationException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException) {
                return true;
            }
        }
        return false;
    }

    private static Response invalid(String detail) {
        CommonErrors err = CommonErrors.INVALID_REQUEST;
        return respond(Problem.of(err, detail));
    }

    /** The database or a service this one calls is down or overloaded: the request may be sent again later. */
    static Response unavailable(Throwable e) {
        LOG.warnf("dependency unavailable: %s", rootMessage(e));
        return respond(UNAVAILABLE);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getName() + ": " + root.getMessage();
    }

    /**
     * Races that the service's own checks cannot close (two inserts of one unique name) end at a database constraint;
     * they are the caller's conflict, not a server failure. The SQL text is never echoed.
     */
    private static Response databaseConstraint(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            // JDBC's SQLException or the reactive client's PgException, whichever carried the statement.
            String state = Unavailability.sqlState(t);
            if (state != null) {
                CommonErrors err;
                String detail;
                switch (state) {
                    case "23505" -> { err = CommonErrors.CONFLICT; detail = "A resource with the same key already exists"; }
                    case "23503" -> { err = CommonErrors.CONFLICT; detail = "The change references a missing resource or is still referenced"; }
                    case "23514", "23502", "22001" -> { err = CommonErrors.INVALID_REQUEST; detail = "The change violates a constraint of the data model"; }
                    // Backstops: the edge refuses NUL bytes and out-of-range numbers before they reach SQL.
                    case "22021", "22P05" -> { err = CommonErrors.INVALID_REQUEST; detail = "A value contains a character the database cannot store"; }
                    case "22003", "22008", "22P02", "22007" -> { err = CommonErrors.INVALID_REQUEST; detail = "A value is out of range or malformed"; }
                    case "40001", "40P01" -> { err = CommonErrors.CONFLICT; detail = "Concurrent change; retry the request"; }
                    default -> { continue; }
                }
                LOG.debugf("constraint violation %s: %s", state, t.getMessage());
                return respond(Problem.of(err, detail));
            }
        }
        return null;
    }

    private static Response internal(Throwable e) {
        String reference = UUID.randomUUID().toString();
        LOG.errorf(e, "unhandled failure, reference %s", reference);
        CommonErrors err = CommonErrors.INTERNAL;
        return respond(Problem.of(err, "The server failed to handle the request; reference " + reference));
    }

    private static String safeDetail(WebApplicationException e) {
        String message = e.getMessage();
        if (message == null || message.isBlank() || message.startsWith("HTTP ")) {
            return e.getResponse().getStatusInfo().getReasonPhrase();
        }
        return message.length() > 300 ? message.substring(0, 300) : message;
    }

    private static String field(ConstraintViolation<?> v) {
        String path = v.getPropertyPath().toString();
        // "create.request.name" -> "name": the method and parameter names are not the client's business.
        String[] parts = path.split("\\.");
        return parts.length > 2 ? String.join(".", java.util.Arrays.copyOfRange(parts, 2, parts.length)) : path;
    }

    static Response respond(Problem problem) {
        Response.ResponseBuilder builder = Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem);
        if (problem.status() == 503) {
            builder.header("Retry-After", Unavailability.RETRY_AFTER_SECONDS);
        }
        return builder.build();
    }
}
