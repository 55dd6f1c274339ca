package io.batchyard.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TraceParentTest {

    @Test
    void parsesAValidHeaderAndIgnoresAnythingElse() {
        TraceParent p = TraceParent.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").orElseThrow();
        assertThat(p.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(p.spanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(p).hasToString("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(TraceParent.parse(null)).isEmpty();
        assertThat(TraceParent.parse("garbage")).isEmpty();
        assertThat(TraceParent.parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).isEmpty();
        assertThat(TraceParent.parse("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).isEmpty();
        assertThat(TraceParent.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")).isEmpty();
    }

    @Test
    void aChildKeepsTheTraceAndGetsASpanOfItsOwn() {
        TraceParent root = TraceParent.root();
        TraceParent child = root.child();
        assertThat(child.traceId()).isEqualTo(root.traceId());
        assertThat(child.flags()).isEqualTo(root.flags());
        assertThat(child.spanId()).isNotEqualTo(root.spanId()).hasSize(16);
        assertThat(TraceParent.parse(child.toString())).contains(child);
        assertThat(TraceParent.root().traceId()).isNotEqualTo(root.traceId());
    }
}
