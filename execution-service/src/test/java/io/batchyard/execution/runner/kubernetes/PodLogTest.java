package io.batchyard.execution.runner.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.runner.OsCommand;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodLogTest {

    @Test
    void aLogReadAgainAsItGrowsHandsOnEachLineOnceAndALastPartialLineOnlyAtTheEnd() {
        List<String> sink = new ArrayList<>();
        PodLog log = new PodLog((stream, line) -> sink.add(stream + ":" + line));
        log.read("one\ntw", false);
        assertThat(sink).containsExactly("stdout:one");
        log.read("one\ntwo\nthr", false);
        log.read("one\ntwo\nthr", false);
        assertThat(sink).containsExactly("stdout:one", "stdout:two");
        log.read("one\ntwo\nthree", true);
        assertThat(sink).containsExactly("stdout:one", "stdout:two", "stdout:three");
        log.read("one\ntwo\nthree", true);
        assertThat(sink).hasSize(3);
        assertThat(log.stdout()).isEqualTo("one\ntwo\nthree\n");
    }

    @Test
    void aLogEndingWithANewlineHasNoEmptyLastLine() {
        List<String> sink = new ArrayList<>();
        PodLog log = new PodLog((stream, line) -> sink.add(line));
        log.read("a\r\nb\n", true);
        assertThat(sink).containsExactly("a", "b");
    }

    @Test
    void aLongLineIsCutAtTheLineLimitSayingHowMuchWasDropped() {
        String line = "x".repeat(OsCommand.MAX_LINE_BYTES + 10);
        assertThat(PodLog.bounded(line)).isEqualTo("x".repeat(OsCommand.MAX_LINE_BYTES) + " … [truncated 10 bytes]");
        assertThat(PodLog.bounded("short")).isEqualTo("short");
    }
}
