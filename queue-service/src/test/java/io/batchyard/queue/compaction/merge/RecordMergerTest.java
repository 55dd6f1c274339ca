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
    void aRecordThatIsNotAJsonObjectNamesItsObjectAndLine() {
        assertThatThrownBy(() -> new RecordMerger().merge(null,
                List.of(lines("{\"eventTime\":1}"), lines("{\"eventTime\":2}", "", "not json")),
                new ByteArrayOutputStream(), n -> { }))
                .isInstanceOfSatisfying(RecordMerger.BadObject.class, bad -> {
                    assertThat(bad.input()).isEqualTo(1);
                    assertThat(bad.lineNumber()).as("1-based, blank lines counted").isEqualTo(3);
                    assertThat(bad.getMessage()).isEqualTo("a record is not valid JSON");
                });
    }

    @Test
    void longLinesOfTheStreamedObjectSurviveBufferBoundaries() throws Exception {
        String big = "{\"eventTime\":3,\"id\":\"big\",\"pad\":\"" + "y".repeat(200_000) + "\"}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = new RecordMerger().merge(lines("{\"eventTime\":1,\"id\":\"a\"}", big, "{\"eventTime\":9,\"id\":\"c\"}"),
                List.of(lines("{\"eventTime\":4,\"id\":\"d\"}")), out, x -> { });
        assertThat(n).isEqualTo(4);
        assertThat(out.toString(StandardCharsets.UTF_8).split("\n")).containsExactly(
                "{\"eventTime\":1,\"id\":\"a\"}", big, "{\"eventTime\":4,\"id\":\"d\"}", "{\"eventTime\":9,\"id\":\"c\"}");
    }

    @Test
    void theFastPathAndTheParserAgree() {
        assertThat(RecordMerger.eventTime("{\"eventTime\":1700000000123,\"x\":1}")).isEqualTo(1_700_000_000_123L);
        assertThat(RecordMerger.eventTime("{\"eventTime\":12}")).isEqualTo(12);
        assertThat(RecordMerger.eventTime("{\"eventTime\":1.5e3}")).as("not an integer: parser").isEqualTo(1500);
        assertThat(RecordMerger.eventTime("{ \"eventTime\" : 42 }")).isEqualTo(42);
    }

    @Test
    void timesTooLargeToPackBesideTheIndexStillSortStably() throws Exception {
        long huge = 9_000_000_000_000_000_000L;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new RecordMerger().merge(null, List.of(
                lines("{\"eventTime\":" + huge + ",\"id\":\"a\"}", "{\"eventTime\":3,\"id\":\"b\"}"),
                lines("{\"eventTime\":" + huge + ",\"id\":\"c\"}", "{\"eventTime\":3,\"id\":\"d\"}")),
                out, x -> { });
        assertThat(out.toString(StandardCharsets.UTF_8).split("\n")).extracting(l -> l.substring(l.length() - 3))
                .containsExactly("b\"}", "d\"}", "a\"}", "c\"}");
    }

    @Test
    void manyLinesKeepTheirInputOrderOnEqualTimes() throws Exception {
        List<RecordMerger.Source> objects = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int o = 0; o < 300; o++) {
            String[] ls = new String[40];
            for (int r = 0; r < 40; r++) {
                ls[r] = "{\"eventTime\":" + (r % 7) + ",\"id\":\"" + o + "-" + r + "\"}";
            }
            objects.add(lines(ls));
        }
        for (int t = 0; t < 7; t++) {
            for (int o = 0; o < 300; o++) {
                for (int r = t; r < 40; r += 7) {
                    expected.add("{\"eventTime\":" + t + ",\"id\":\"" + o + "-" + r + "\"}");
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(new RecordMerger().merge(null, objects, out, x -> { })).isEqualTo(12_000);
        assertThat(out.toString(StandardCharsets.UTF_8).split("\n")).containsExactlyElementsOf(expected);
    }

    @Test
    void negativeTimesSortAsTheEpoch() {
        assertThat(RecordMerger.eventTime("{\"eventTime\":-5}")).isZero();
        assertThat(RecordMerger.eventTime("{\"eventTime\":null}")).isZero();
    }
}
