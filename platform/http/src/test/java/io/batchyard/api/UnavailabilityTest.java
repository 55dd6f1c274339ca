package io.batchyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class UnavailabilityTest {

    @Test
    void connectionAndCapacityFailuresAreUnavailability() {
        assertThat(Unavailability.isUnavailable(new RuntimeException(new SQLException("I/O error", "08006")))).isTrue();
        assertThat(Unavailability.isUnavailable(new SQLException("terminating connection", "57P01"))).isTrue();
        assertThat(Unavailability.isUnavailable(new SQLException("starting up", "57P03"))).isTrue();
        assertThat(Unavailability.isUnavailable(new SQLException("too many clients", "53300"))).isTrue();
        assertThat(Unavailability.isUnavailable(new SQLException("Sorry, acquisition timeout!"))).isTrue();
        assertThat(Unavailability.isUnavailable(new IllegalStateException(new ConnectException("refused")))).isTrue();
        assertThat(Unavailability.isUnavailable(new IOException("Connection reset by peer"))).isTrue();
    }

    @Test
    void badInputAndBugsAreNot() {
        assertThat(Unavailability.isUnavailable(new SQLException("invalid byte sequence", "22021"))).isFalse();
        assertThat(Unavailability.isUnavailable(new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(Unavailability.isUnavailable(new IndexOutOfBoundsException())).isFalse();
        assertThat(Unavailability.isUnavailable(new SQLException("no state"))).isFalse();
    }

    @Test
    void theReactiveClientsExceptionsAreRecognisedByName() {
        assertThat(Unavailability.isUnavailable(new io.vertx.core.VertxException("Connection is closed"))).isTrue();
        assertThat(Unavailability.isUnavailable(new java.nio.channels.ClosedChannelException())).isTrue();
    }

    @Test
    void theEdgeRefusesMatrixParametersDotSegmentsNulAndBadEscapes() {
        assertThat(HttpEdge.screenUri("/jobs/1;x/init")).contains("Matrix");
        assertThat(HttpEdge.screenUri("/processes/1/properties/..")).contains("Dot segments");
        assertThat(HttpEdge.screenUri("/processes/1/properties/%2e%2e")).contains("Dot segments");
        assertThat(HttpEdge.screenUri("/processes/1%00")).contains("NUL");
        assertThat(HttpEdge.screenUri("/processes?name=a%00b")).contains("NUL");
        assertThat(HttpEdge.screenUri("/processes?name=%zz")).contains("percent-encoding");
        assertThat(HttpEdge.screenUri("/processes/1?name=a%3Bb&x=%2e%2e")).isNull();
    }
}
