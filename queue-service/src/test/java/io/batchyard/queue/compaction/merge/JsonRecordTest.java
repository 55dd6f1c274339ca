package io.batchyard.queue.compaction.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonRecordTest {

    private static long time(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return JsonRecord.eventTime(b, 0, b.length);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{}", " { } ", "{\"a\":1}", "{\"a\":[1,2,{\"b\":null}],\"c\":true,\"d\":false,\"e\":\"x\"}",
            "{\"s\":\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9\"}", "{\"n\":-0.5e+10,\"m\":0,\"k\":1E3,\"j\":-12}",
            "{\"utf8\":\"é ü € 𝄞\"}", "{\"nested\":{\"deep\":[[[]]],\"o\":{}}}", "\t{\"a\":1}\r"})
    void wellFormedObjectsAreAccepted(String line) {
        assertThat(time(line)).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "not json", "{", "}", "{\"a\":1", "{\"a\":1}}", "{\"a\":1} x", "{\"a\":1}{\"b\":2}", "{\"a\":1,}", "{,}",
            "{\"a\"}", "{\"a\" 1}", "{a:1}", "{'a':1}", "{\"a\":\"unterminated}", "{\"a\":\"bad \\x escape\"}",
            "{\"a\":\"\\u12g4\"}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":-}", "{\"a\":+1}",
            "{\"a\":tru}", "{\"a\":nul}", "{\"a\":falsey}", "{\"a\":NaN}", "{\"a\":[1,]}", "{\"a\":[1 2]}",
            "{\"a\":1} // comment", "{\"a\":\"raw \t tab\"}"})
    void malformedRecordsAreRefused(String line) {
        assertThatThrownBy(() -> time(line)).isInstanceOf(RecordMerger.MalformedRecord.class)
                .hasMessage(JsonRecord.NOT_JSON);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1,2]", "42", "\"text\"", "null", "true"})
    void wellFormedValuesThatAreNotObjectsAreRefusedAsSuch(String line) {
        assertThatThrownBy(() -> time(line)).isInstanceOf(RecordMerger.MalformedRecord.class)
                .hasMessage(JsonRecord.NOT_OBJECT);
    }

    @Test
    void invalidUtf8InAStringIsRefused() {
        byte[] overlong = {'{', '"', 'a', '"', ':', '"', (byte) 0xc0, (byte) 0xaf, '"', '}'};
        byte[] truncated = {'{', '"', 'a', '"', ':', '"', (byte) 0xe2, (byte) 0x82, '"', '}'};
        byte[] surrogate = {'{', '"', 'a', '"', ':', '"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"', '}'};
        for (byte[] b : List.of(overlong, truncated, surrogate)) {
            assertThatThrownBy(() -> JsonRecord.eventTime(b, 0, b.length)).isInstanceOf(RecordMerger.MalformedRecord.class);
        }
    }

    @Test
    void nestingIsBoundedAndNeverOverflowsTheStack() {
        assertThat(time("{\"a\":" + "[".repeat(JsonRecord.MAX_DEPTH - 1) + "]".repeat(JsonRecord.MAX_DEPTH - 1) + "}"))
                .isZero();
        assertThatThrownBy(() -> time("{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}"))
                .isInstanceOf(RecordMerger.MalformedRecord.class);
    }

    @Test
    void theTopLevelEventTimeIsRead() {
        assertThat(time("{\"eventTime\":1700000000123,\"x\":1}")).isEqualTo(1_700_000_000_123L);
        assertThat(time("{\"x\":{\"eventTime\":5},\"eventTime\":7}")).as("only the top level").isEqualTo(7);
        assertThat(time("{\"eventTime\":3,\"eventTime\":9}")).as("the last one, as a streaming parser reads it").isEqualTo(9);
        assertThat(time("{\"eventTime\":\"12\"}")).as("a string is no time").isZero();
        assertThat(time("{\"eventTime\":-5}")).isZero();
        assertThat(time("{\"eventTime\":2.5e3}")).as("fraction and exponent: through the parser").isEqualTo(2500);
        assertThat(time("{\"event\\u0054ime\":11}")).as("an escaped key is the same key").isEqualTo(11);
        assertThatThrownBy(() -> time("{\"eventTime\":99999999999999999999999}")).as("does not fit a long")
                .isInstanceOf(RecordMerger.MalformedRecord.class);
    }

    @Test
    void aMergedObjectsLinesAreReadWithoutTheCheck() {
        byte[] b = "{\"eventTime\":42,\"x\":1}".getBytes(StandardCharsets.UTF_8);
        assertThat(JsonRecord.mergedRecordTime(b, 0, b.length)).isEqualTo(42);
        byte[] other = "{ \"x\":1, \"eventTime\":43 }".getBytes(StandardCharsets.UTF_8);
        assertThat(JsonRecord.mergedRecordTime(other, 0, other.length)).isEqualTo(43);
    }

    /** The merger's line numbers: 1-based, blank lines counted, the first bad line of the first bad object. */
    @Test
    void theMergerNamesTheLineOfTheFirstMalformedRecord() throws Exception {
        for (String[] c : new String[][] {
                {"{\"eventTime\":1}\n\n  \n{\"a\":1} trailing\n{\"b\":", "4"},
                {"{\"eventTime\":1}\r\n{\"s\":\"unterminated}\r\n", "2"},
                {"\n\n[1]\n", "3"},
                {"{\"eventTime\":1}\n{\"eventTime\":2}", null}}) {
            byte[] bytes = c[0].getBytes(StandardCharsets.UTF_8);
            RecordMerger.Source source = () -> new ByteArrayInputStream(bytes);
            if (c[1] == null) {
                assertThat(merge(source)).isEqualTo(2);
                continue;
            }
            assertThatThrownBy(() -> merge(source)).isInstanceOfSatisfying(RecordMerger.BadObject.class, bad -> {
                assertThat(bad.input()).isEqualTo(1);
                assertThat(bad.lineNumber()).isEqualTo(Integer.parseInt(c[1]));
            });
        }
    }

    private static long merge(RecordMerger.Source second) throws Exception {
        RecordMerger.Source first = () -> new ByteArrayInputStream("{\"eventTime\":0}\n".getBytes(StandardCharsets.UTF_8));
        return new RecordMerger().merge(null, List.of(first, second), new ByteArrayOutputStream(), n -> { }) - 1;
    }
}
