package io.batchyard.teststack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String EXPOSITION = """
            # HELP batchyard_lifecycle_transitions_total Lifecycle calls
            # TYPE batchyard_lifecycle_transitions_total counter
            batchyard_lifecycle_transitions_total{call="InitJob",outcome="ok"} 3.0
            batchyard_lifecycle_transitions_total{call="InitJob",outcome="rejected"} 1.0
            batchyard_lifecycle_transitions_total{call="HaltJob",outcome="ok"} 2.0 # {span_id="00f067aa0ba902b7",trace_id="4bf92f3577b34da6a3ce929d0e0e4736"} 1.0 1700000000.123
            batchyard_outbox_backlog 0.0
            batchyard_fanout_latency_seconds_bucket{le="+Inf"} 7.0
            batchyard_fanout_latency_seconds_count 7.0 1700000000123
            batchyard_odd{path="/a,{b}",note="say \\"hi\\""} NaN
            # EOF
            """;

    @Test
    void sumsTheSamplesWhoseLabelsMatch() {
        assertThat(PrometheusText.value(EXPOSITION, "batchyard_lifecycle_transitions_total", "call", "InitJob"))
                .isEqualTo(4.0);
        assertThat(PrometheusText.value(EXPOSITION, "batchyard_lifecycle_transitions_total",
                "call", "InitJob", "outcome", "ok")).isEqualTo(3.0);
        assertThat(PrometheusText.value(EXPOSITION, "batchyard_lifecycle_transitions_total")).isEqualTo(6.0);
    }

    @Test
    void readsTheValueBeforeATimestampOrAnExemplar() {
        assertThat(PrometheusText.value(EXPOSITION, "batchyard_lifecycle_transitions_total", "call", "HaltJob"))
                .isEqualTo(2.0);
        assertThat(PrometheusText.value(EXPOSITION, "batchyard_fanout_latency_seconds_count")).isEqualTo(7.0);
        assertThat(PrometheusText.value(EXPOSITION, "batchyard_fanout_latency_seconds_bucket", "le", "+Inf"))
                .isEqualTo(7.0);
    }

    @Test
    void labelValuesMayHoldQuotesCommasAndBraces() {
        PrometheusText.Sample odd = PrometheusText.parse(EXPOSITION).stream()
                .filter(s -> s.name().equals("batchyard_odd")).findFirst().orElseThrow();
        assertThat(odd.labels()).isEqualTo(Map.of("path", "/a,{b}", "note", "say \"hi\""));
        assertThat(odd.value()).isNaN();
    }

    @Test
    void aMissingSeriesIsNotZero() {
        assertThat(PrometheusText.sum(EXPOSITION, "batchyard_lifecycle_transitions_total", "call", "TermJob"))
                .isEmpty();
        assertThat(PrometheusText.valueOrZero(EXPOSITION, "batchyard_nothing")).isZero();
        assertThatThrownBy(() -> PrometheusText.value(EXPOSITION, "batchyard_nothing"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("batchyard_nothing");
        // a substring of a label value is not a match
        assertThat(PrometheusText.sum(EXPOSITION, "batchyard_lifecycle_transitions_total", "call", "Init")).isEmpty();
    }

    @Test
    void aLineThatIsNotASampleFails() {
        assertThatThrownBy(() -> PrometheusText.parse("batchyard_broken{call=\"x\" 1.0\n"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PrometheusText.parse("batchyard_broken abc\n"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
