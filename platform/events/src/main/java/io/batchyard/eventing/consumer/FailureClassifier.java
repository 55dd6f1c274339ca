package io.batchyard.eventing.consumer;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.schemas.EventCodec;
import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Decides whether a consumer's failure is transient (the infrastructure failed: retry the same record) or poison (the
 * record can never be applied: dead-letter it). The rule is the two tables below, checked against every throwable of
 * the cause chain, because a lost connection usually arrives wrapped (Hibernate Reactive, a {@code CompletionException}, an {@code IllegalStateException}
 * around a rolled-back transaction).
 *
 * <ol>
 *   <li>If any throwable in the chain is transient, the failure is transient: losing a valid record to a database
 *       blip is worse than retrying a bad one for a while, and every retry is logged.</li>
 *   <li>Otherwise the first poison match, from the outermost throwable inwards, names the reason.</li>
 *   <li>Otherwise the failure is {@link FailureKind#UNEXPECTED}: a bug, dead-lettered and logged at ERROR.</li>
 * </ol>
 *
 * <p>Classes that are not on every service's classpath (the reactive PostgreSQL client, Netty, Hibernate, JAX-RS,
 * the REST error type) are recognised by name, so the rule holds when the persistence layer changes.
 *
 * <p>Every {@link Classification#reason()} is safe for a dead-letter header: a fixed label, a SQL state, an HTTP
 * status, or the message of an exception whose contract is to carry an operator-readable reason
 * ({@link InvalidEventException}, a REST refusal). Never SQL text, bind values or a stack trace.
 */
public final class FailureClassifier {

    /** The verdict, the safe reason for headers, and the throwable that decided it (for logs only). */
    public record Classification(FailureKind kind, String reason, Throwable decidedBy) {

        /** The deciding throwable's own message, first line only: for log lines, never for headers. */
        public String detail() {
            String message = decidedBy == null ? null : decidedBy.getMessage();
            if (message == null) {
                return decidedBy == null ? "" : decidedBy.getClass().getSimpleName();
            }
            int newline = message.indexOf('\n');
            return newline < 0 ? message : message.substring(0, newline);
        }
    }

    /** SQL states (a full code, or a two-character class) and what they mean for a consumer. */
    static final List<SqlStateRule> SQL_STATES = List.of(
            new SqlStateRule("08", FailureKind.TRANSIENT, "database connection failed"),
            new SqlStateRule("28", FailureKind.TRANSIENT, "database refused the login"),
            new SqlStateRule("40001", FailureKind.TRANSIENT, "serialization failure"),
            new SqlStateRule("40P01", FailureKind.TRANSIENT, "deadlock"),
            new SqlStateRule("53", FailureKind.TRANSIENT, "database out of resources (connections, memory or disk)"),
            new SqlStateRule("55P03", FailureKind.TRANSIENT, "lock not available"),
            new SqlStateRule("57014", FailureKind.TRANSIENT, "statement canceled"),
            new SqlStateRule("57P01", FailureKind.TRANSIENT, "database connection terminated by an administrator"),
            new SqlStateRule("57P02", FailureKind.TRANSIENT, "database crashed"),
            new SqlStateRule("57P03", FailureKind.TRANSIENT, "database not accepting connections yet"),
            new SqlStateRule("22", FailureKind.INVALID, "value rejected by the database"),
            new SqlStateRule("23", FailureKind.INVALID, "integrity constraint violated"));

    /** Rules on the throwable itself; the SQL state table is consulted first for anything that carries a state. */
    static final List<Rule> RULES = List.of(
            new Rule(FailureKind.INVALID, t -> t instanceof InvalidEventException, t -> "invalid event: " + t.getMessage()),
            new Rule(FailureKind.INVALID, t -> t instanceof EventCodec.UnknownEventException,
                    t -> "undecodable record: " + t.getMessage()),
            new Rule(FailureKind.TRANSIENT, t -> t instanceof java.sql.SQLTransientException,
                    t -> "transient database failure"),
            new Rule(FailureKind.TRANSIENT, t -> t instanceof java.sql.SQLRecoverableException,
                    t -> "database connection lost"),
            // Agroal: "Sorry, acquisition timeout!" / "Acquisition timeout while waiting for new connection", no state.
            new Rule(FailureKind.TRANSIENT, t -> t instanceof SQLException && messageContains(t, "acquisition timeout"),
                    t -> "connection pool exhausted"),
            new Rule(FailureKind.TRANSIENT, t -> t instanceof java.net.SocketException
                    || t instanceof java.net.SocketTimeoutException || t instanceof java.net.UnknownHostException
                    || t instanceof java.net.http.HttpTimeoutException
                    || t instanceof java.nio.channels.ClosedChannelException,
                    t -> "network failure (" + t.getClass().getSimpleName() + ")"),
            // The reactive client and its transport, by name: not on the classpath of a JDBC service.
            new Rule(FailureKind.TRANSIENT, t -> isA(t, "io.vertx.sqlclient.ClosedConnectionException")
                    || isA(t, "io.netty.channel.ConnectTimeoutException")
                    || isA(t, "io.vertx.core.http.ConnectionPoolTooBusyException")
                    || isA(t, "io.vertx.core.impl.NoStackTraceTimeoutException")
                    || isA(t, "io.vertx.core.VertxException") && messageContains(t, "connection")
                    && messageContains(t, "closed")
                    // a statement sent on a connection the database has just closed
                    || isA(t, "io.vertx.core.impl.NoStackTraceThrowable")
                    && messageContains(t, "connection is not active now"),
                    t -> "database connection closed"),
            new Rule(FailureKind.TRANSIENT, t -> isA(t, "org.hibernate.exception.JDBCConnectionException")
                    || isA(t, "org.hibernate.exception.LockAcquisitionException")
                    || isA(t, "org.hibernate.exception.LockTimeoutException")
                    || isA(t, "org.hibernate.PessimisticLockException")
                    || isA(t, "jakarta.persistence.LockTimeoutException")
                    || isA(t, "jakarta.persistence.PessimisticLockException")
                    || isA(t, "jakarta.persistence.QueryTimeoutException"),
                    t -> "database lock or connection failure (" + t.getClass().getSimpleName() + ")"),
            new Rule(FailureKind.TRANSIENT, t -> httpStatus(t).filter(s -> s == 502 || s == 503 || s == 504).isPresent(),
                    t -> "called service unavailable (HTTP " + httpStatus(t).orElseThrow() + ")"),
            // A REST refusal (4xx) raised while applying an event: the event contradicts the service's state.
            new Rule(FailureKind.INVALID, t -> isA(t, "io.batchyard.api.ApiException")
                    && httpStatus(t).filter(s -> s >= 400 && s < 500).isPresent(),
                    t -> "refused (HTTP " + httpStatus(t).orElseThrow() + "): " + t.getMessage()),
            new Rule(FailureKind.TRANSIENT, t -> t instanceof InterruptedException,
                    t -> "interrupted"),
            // Validation by a consumer or a library; its message may quote values, so only the type is kept.
            new Rule(FailureKind.INVALID, t -> t instanceof IllegalArgumentException,
                    t -> "invalid event (" + t.getClass().getSimpleName() + ")"));

    private static final int MAX_DEPTH = 32;

    private FailureClassifier() {
    }

    public static boolean isTransient(Throwable failure) {
        return classify(failure).kind() == FailureKind.TRANSIENT;
    }

    public static Classification classify(Throwable failure) {
        List<Throwable> chain = chain(failure);
        Classification firstPoison = null;
        for (Throwable t : chain) {
            Classification c = match(t);
            if (c == null) {
                continue;
            }
            if (c.kind() == FailureKind.TRANSIENT) {
                return c;
            }
            if (firstPoison == null) {
                firstPoison = c;
            }
        }
        if (firstPoison != null) {
            return firstPoison;
        }
        Throwable root = chain.get(chain.size() - 1);
        return new Classification(FailureKind.UNEXPECTED, "unexpected failure (" + failure.getClass().getSimpleName()
                + (root == failure ? "" : " caused by " + root.getClass().getSimpleName()) + ")", root);
    }

    private static Classification match(Throwable t) {
        Optional<String> state = sqlState(t);
        if (state.isPresent()) {
            for (SqlStateRule rule : SQL_STATES) {
                if (rule.matches(state.get())) {
                    return new Classification(rule.kind(), rule.label() + " (SQL state " + state.get() + ")", t);
                }
            }
        }
        for (Rule rule : RULES) {
            if (rule.matches().test(t)) {
                return new Classification(rule.kind(), rule.reason().apply(t), t);
            }
        }
        return null;
    }

    /** The cause chain from the outermost throwable inwards, without cycles. */
    static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t) && chain.size() < MAX_DEPTH; t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** The SQL state of a JDBC exception or of the reactive client's database exception. */
    static Optional<String> sqlState(Throwable t) {
        if (t instanceof SQLException sql) {
            return Optional.ofNullable(sql.getSQLState()).filter(s -> !s.isBlank());
        }
        if (isA(t, "io.vertx.sqlclient.DatabaseException") || isA(t, "io.vertx.pgclient.PgException")) {
            return invoke(t, "getSqlState").or(() -> invoke(t, "getCode"))
                    .filter(String.class::isInstance).map(String.class::cast).filter(s -> !s.isBlank());
        }
        return Optional.empty();
    }

    /** The HTTP status of a REST refusal ({@code status()}) or a JAX-RS exception ({@code getResponse().getStatus()}). */
    static Optional<Integer> httpStatus(Throwable t) {
        if (isA(t, "io.batchyard.api.ApiException")) {
            return invoke(t, "status").filter(Integer.class::isInstance).map(Integer.class::cast);
        }
        if (isA(t, "jakarta.ws.rs.WebApplicationException")) {
            return invoke(t, "getResponse").flatMap(r -> invoke(r, "getStatus"))
                    .filter(Integer.class::isInstance).map(Integer.class::cast);
        }
        return Optional.empty();
    }

    /** True when the throwable's class or one of its superclasses has this name. */
    static boolean isA(Throwable t, String className) {
        for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    private static boolean messageContains(Throwable t, String lowerCaseText) {
        String message = t.getMessage();
        return message != null && message.toLowerCase(Locale.ROOT).contains(lowerCaseText);
    }

    private static Optional<Object> invoke(Object target, String method) {
        try {
            Method m = target.getClass().getMethod(method);
            return Optional.ofNullable(m.invoke(target));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** A SQL state rule: {@code code} is a full five-character state or a two-character class. */
    record SqlStateRule(String code, FailureKind kind, String label) {

        boolean matches(String state) {
            return code.length() == 2 ? state.startsWith(code) : state.equals(code);
        }
    }

    /** A rule on the throwable's type (and sometimes its message); {@code reason} must stay header-safe. */
    record Rule(FailureKind kind, Predicate<Throwable> matches, Function<Throwable, String> reason) {
    }
}
