package io.batchyard.queue.compaction.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordMergerTest {

    private static RecordMerger.Source lines(String... lines) {
        byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        return () -> new ByteArrayInputStream(bytes);
    }

    @Test
    void mergesByEventTimeKeepingEachLineVerbatimAndTiesInInputOrder() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Long> progress = new ArrayList<>();
        long n = new RecordMerger().merge(
                lines("{\"eventTime\":1,\"id\":\"old-1\"}", "{\"eventTime\":5,\"id\":\"old-5\"}"),
                List.of(lines("{\"id\":\"a-7\", \"eventTime\":7}", "{\"eventTime\":5,\"id\":\"a-5\",\"nested\":{\"eventTime\":0}}"),
                        lines("", "{\"eventTime\":2,\"id\":\"b-2\"}", "{\"id\":\"b-none\"}")),
                out, progress::add);
        assertThat(n).isEqualTo(6);
        assertThat(out.toString(StandardCharsets.UTF_8).split("\n")).containsExactly(
                "{\"id\":\"b-none\"}",
                "{\"eventTime\":1,\"id\":\"old-1\"}",
                "{\"eventTime\":2,\"id\":\"b-2\"}",
                "{\"eventTime\":5,\"id\":\"old-5\"}",
                "{\"eventTime\":5,\"id\":\"a-5\",\"nested\":{\"eventTime\":0}}",
                "{\"id\":\"a-7\", \"eventTime\":7}");
        assertThat(progress).isEmpty();
    }

    @Test
    void aRecordThatIsNotAJsonObjectMakesTheMergeFail() {
        assertThatThrownBy(() -> new RecordMerger().merge(null, List.of(lines("not json")), new ByteArrayOutputStream(),
                n -> { })).isInstanceOf(RecordMerger.MalformedRecord.class);
    }

    @Test
    void negativeTimesSortAsTheEpoch() {
        assertThat(RecordMerger.eventTime("{\"eventTime\":-5}")).isZero();
        assertThat(RecordMerger.eventTime("{\"eventTime\":null}")).isZero();
    }
}
