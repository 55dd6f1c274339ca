package io.batchyard.eventing.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.schemas.EventCodec;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FailureClassifierTest {

    /** The SQL-state table, as PostgreSQL's JDBC driver reports it, wrapped the way a data-access layer wraps it. */
    @ParameterizedTest
    @CsvSource({
        "08006, An I/O error occurred while sending to the backend., TRANSIENT",
        "08003, This connection has been closed., TRANSIENT",
        "08001, Connection to 127.0.0.1:5432 refused., TRANSIENT",
        "57P01, terminating connection due to administrator command, TRANSIENT",
        "57P02, terminating connection because of crash of another server process, TRANSIENT",
        "57P03, the database system is starting up, TRANSIENT",
        "57014, canceling statement due to user request, TRANSIENT",
        "53300, sorry too many clients already, TRANSIENT",
        "40001, could not serialize access due to concurrent update, TRANSIENT",
        "40P01, deadlock detected, TRANSIENT",
        "55P03, could not obtain lock on row in relation batch, TRANSIENT",
        "28P01, password authentication failed for user batchyard, TRANSIENT",
        "23505, duplicate key value violates unique constraint, INVALID",
        "23503, insert or update violates foreign key constraint, INVALID",
        "22021, invalid byte sequence for encoding UTF8: 0x00, INVALID",
        "42P01, relation does not exist, UNEXPECTED",
    })
    void sqlStatesOfTheJdbcDriver(String state, String message, FailureKind kind) {
        RuntimeException wrapped = new RuntimeException("Unable to execute statement", new SQLException(message, state));
        assertThat(FailureClassifier.classify(wrapped).kind()).isEqualTo(kind);
    }

    @ParameterizedTest
    @CsvSource({
        "08006, TRANSIENT",
        "40P01, TRANSIENT",
        "57P01, TRANSIENT",
        "23505, INVALID",
    })
    void sqlStatesOfTheReactiveClientAreReadByClassName(String state, FailureKind kind) {
        RuntimeException wrapped = new CompletionException(new IllegalStateException("HR000001",
                new PgException("server said no", "ERROR", state, null)));
        assertThat(FailureClassifier.classify(wrapped).kind()).isEqualTo(kind);
    }

    @Test
    void lostConnectionsOfEveryClientAreTransient() {
        assertThat(FailureClassifier.classify(ClosedConnectionException.INSTANCE).kind())
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureClassifier.classify(new io.vertx.core.VertxException("Connection is closed")).kind())
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureClassifier.classify(new org.hibernate.HibernateException(new io.vertx.core.impl.NoStackTraceThrowable(
                "Connection is not active now, current status: CLOSED"))).kind())
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureClassifier.classify(new RuntimeException(new ClosedChannelException())).kind())
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureClassifier.classify(new IllegalStateException("claim failed",
                new ConnectException("Connection refused"))).kind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureClassifier.classify(new SQLTransientConnectionException("gone")).kind())
                .isEqualTo(FailureKind.TRANSIENT);
    }

    @Test
    void anExhaustedPoolIsTransient() {
        // The reactive pool gives up waiting for a free connection with a timeout that carries no SQL state.
        RuntimeException waited = new CompletionException(
                new io.vertx.core.impl.NoStackTraceTimeoutException("Timeout while waiting for a connection"));
        assertThat(FailureClassifier.classify(waited).kind()).isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureClassifier.classify(new IllegalStateException(
                new SQLException("Acquisition timeout while waiting for new connection"))).reason())
                .isEqualTo("connection pool exhausted");
    }

    @Test
    void aTransientCauseWinsOverAPoisonLookingWrapper() {
        RuntimeException failure = new IllegalArgumentException("bad",
                new SQLException("An I/O error occurred while sending to the backend.", "08006"));
        assertThat(FailureClassifier.classify(failure).kind()).isEqualTo(FailureKind.TRANSIENT);
    }

    @Test
    void invalidEventsKeepTheirReason() {
        FailureClassifier.Classification c = FailureClassifier.classify(
                new InvalidEventException("run 42 has no claim for batch 7"));
        assertThat(c.kind()).isEqualTo(FailureKind.INVALID);
        assertThat(c.reason()).isEqualTo("invalid event: run 42 has no claim for batch 7");
        assertThat(FailureClassifier.classify(new EventCodec.UnknownEventException("unknown schema fingerprint 1f")).reason())
                .isEqualTo("undecodable record: unknown schema fingerprint 1f");
    }

    @Test
    void reasonsNeverCarrySqlBindValuesOrMessagesOfUnknownOrigin() {
        RuntimeException wrapped = new RuntimeException("""
                org.postgresql.util.PSQLException: ERROR: duplicate key [statement:"INSERT INTO batch (batch_id) \
                VALUES (:id)", arguments:{named:{id:4711}}]""",
                new SQLException("ERROR: duplicate key value violates unique constraint \"batch_pkey\"\n"
                        + "  Detail: Key (batch_id)=(4711) already exists.", "23505"));
        FailureClassifier.Classification c = FailureClassifier.classify(wrapped);
        assertThat(c.reason()).isEqualTo("integrity constraint violated (SQL state 23505)");
        FailureClassifier.Classification iae = FailureClassifier.classify(
                new IllegalArgumentException("secret value 4711 is not a marking"));
        assertThat(iae.kind()).isEqualTo(FailureKind.INVALID);
        assertThat(iae.reason()).doesNotContain("4711");
        FailureClassifier.Classification npe = FailureClassifier.classify(
                new IllegalStateException("SELECT secret FROM t", new NullPointerException("x.y is null")));
        assertThat(npe.kind()).isEqualTo(FailureKind.UNEXPECTED);
        assertThat(npe.reason()).isEqualTo("unexpected failure (IllegalStateException caused by NullPointerException)");
    }

    @Test
    void aCyclicCauseChainEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(FailureClassifier.classify(a).kind()).isEqualTo(FailureKind.UNEXPECTED);
        assertThat(FailureClassifier.chain(a)).hasSize(2);
    }
}
