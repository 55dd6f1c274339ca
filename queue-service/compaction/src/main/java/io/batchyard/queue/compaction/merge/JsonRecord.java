package io.batchyard.queue.compaction.merge;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * One record (one line of a small object) checked as JSON without building anything: the bytes must be exactly one
 * well-formed JSON value (RFC 8259: UTF-8 strings without raw control characters, no leading zeros, no comments or
 * trailing text, nesting at most {@value #MAX_DEPTH} deep) and that value must be an object. Its top-level numeric
 * {@code eventTime} is read in the same pass. Merging copies records byte for byte, so this check is the only reading
 * a record gets; a tree parse of each record cost several times the bytes it checked.
 */
final class JsonRecord {

    static final String NOT_JSON = "a record is not valid JSON";
    static final String NOT_OBJECT = "a record is not a JSON object";
    static final int MAX_DEPTH = 1000;

    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] EVENT_TIME = {'e', 'v', 'e', 'n', 't', 'T', 'i', 'm', 'e'};
    private static final byte[] FAST_PREFIX = {'{', '"', 'e', 'v', 'e', 'n', 't', 'T', 'i', 'm', 'e', '"', ':'};

    /** Not well-formed; the position is only for debugging, the caller reports the line. */
    private static final class Invalid extends Exception {
        Invalid() {
            super(null, null, false, false);
        }
    }

    private static final Invalid INVALID = new Invalid();

    private final byte[] b;
    private final int end;
    private int pos;
    private long time;
    /** The time needs the parser: a fractional, exponent or very long number, or a top-level key with escapes. */
    private boolean needsParser;

    private JsonRecord(byte[] b, int from, int to) {
        this.b = b;
        this.pos = from;
        this.end = to;
    }

    /**
     * Checks {@code b[from, to)} and returns its top-level {@code eventTime} (epoch ms; 0 when absent, not a number or
     * negative; the last one wins if the key repeats, as a streaming parser would read it).
     *
     * @throws RecordMerger.MalformedRecord when the bytes are not one JSON object
     */
    static long eventTime(byte[] b, int from, int to) {
        JsonRecord r = new JsonRecord(b, from, to);
        boolean object;
        try {
            r.whitespace();
            object = r.pos < to && b[r.pos] == '{';
            r.value(0);
            r.whitespace();
            if (r.pos != to) {
                throw INVALID;
            }
        } catch (Invalid | ArrayIndexOutOfBoundsException e) {
            throw new RecordMerger.MalformedRecord(NOT_JSON);
        }
        if (!object) {
            throw new RecordMerger.MalformedRecord(NOT_OBJECT);
        }
        return r.needsParser ? parsedTime(b, from, to) : Math.max(0, r.time);
    }

    /**
     * The time of a line of a merged object, which was checked when it was first merged (possibly by an older, more
     * lenient version of this check): the common layout {@code {"eventTime":<digits>,} is read directly, anything
     * else by the streaming parser, and neither refuses a record that an earlier merge accepted.
     */
    static long mergedRecordTime(byte[] b, int from, int to) {
        int n = FAST_PREFIX.length;
        if (to - from > n && java.util.Arrays.equals(b, from, from + n, FAST_PREFIX, 0, n)) {
            long value = 0;
            int i = from + n;
            int digits = 0;
            while (i < to && b[i] >= '0' && b[i] <= '9' && digits < 18) {
                value = value * 10 + (b[i++] - '0');
                digits++;
            }
            if (digits > 0 && i < to && (b[i] == ',' || b[i] == '}')) {
                return value;
            }
        }
        return parsedTime(b, from, to);
    }

    private void whitespace() {
        while (pos < end) {
            byte c = b[pos];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return;
            }
            pos++;
        }
    }

    private void value(int depth) throws Invalid {
        if (pos >= end) {
            throw INVALID;
        }
        switch (b[pos]) {
            case '{' -> object(depth + 1);
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> literal('t', 'r', 'u', 'e');
            case 'f' -> {
                literal('f', 'a', 'l', 's');
                expect('e');
            }
            case 'n' -> literal('n', 'u', 'l', 'l');
            default -> number();
        }
    }

    private void object(int depth) throws Invalid {
        if (depth > MAX_DEPTH) {
            throw INVALID;
        }
        pos++;
        whitespace();
        if (pos < end && b[pos] == '}') {
            pos++;
            return;
        }
        while (true) {
            if (pos >= end || b[pos] != '"') {
                throw INVALID;
            }
            int keyStart = pos + 1;
            boolean escaped = string();
            int keyEnd = pos - 1;
            whitespace();
            expect(':');
            whitespace();
            if (depth == 1 && (escaped || isEventTime(keyStart, keyEnd))) {
                if (escaped) {
                    // "event\u0054ime" is eventTime too: let the parser decide
                    needsParser = true;
                    value(depth);
                } else {
                    topLevelTime();
                }
            } else {
                value(depth);
            }
            whitespace();
            if (pos >= end) {
                throw INVALID;
            }
            byte c = b[pos++];
            if (c == '}') {
                return;
            }
            if (c != ',') {
                throw INVALID;
            }
            whitespace();
        }
    }

    private void array(int depth) throws Invalid {
        if (depth > MAX_DEPTH) {
            throw INVALID;
        }
        pos++;
        whitespace();
        if (pos < end && b[pos] == ']') {
            pos++;
            return;
        }
        while (true) {
            value(depth);
            whitespace();
            if (pos >= end) {
                throw INVALID;
            }
            byte c = b[pos++];
            if (c == ']') {
                return;
            }
            if (c != ',') {
                throw INVALID;
            }
            whitespace();
        }
    }

    private boolean isEventTime(int from, int to) {
        return to - from == EVENT_TIME.length && java.util.Arrays.equals(b, from, to, EVENT_TIME, 0, EVENT_TIME.length);
    }

    /** The value of a top-level eventTime: a plain integer is read here, any other number by the parser. */
    private void topLevelTime() throws Invalid {
        int start = pos;
        if (pos >= end || (b[pos] != '-' && (b[pos] < '0' || b[pos] > '9'))) {
            value(1); // not a number: ignored, as before
            return;
        }
        boolean integer = number();
        int digits = pos - start - (b[start] == '-' ? 1 : 0);
        if (!integer || digits > 18) {
            needsParser = true;
            return;
        }
        long v = 0;
        for (int i = b[start] == '-' ? start + 1 : start; i < pos; i++) {
            v = v * 10 + (b[i] - '0');
        }
        time = b[start] == '-' ? -v : v;
    }

    /** A JSON number; true when it has neither fraction nor exponent. */
    private boolean number() throws Invalid {
        if (b[pos] == '-') {
            pos++;
        }
        if (pos >= end) {
            throw INVALID;
        }
        if (b[pos] == '0') {
            pos++;
        } else if (b[pos] >= '1' && b[pos] <= '9') {
            digits();
        } else {
            throw INVALID;
        }
        boolean integer = true;
        if (pos < end && b[pos] == '.') {
            pos++;
            requireDigits();
            integer = false;
        }
        if (pos < end && (b[pos] == 'e' || b[pos] == 'E')) {
            pos++;
            if (pos < end && (b[pos] == '+' || b[pos] == '-')) {
                pos++;
            }
            requireDigits();
            integer = false;
        }
        return integer;
    }

    private void requireDigits() throws Invalid {
        if (pos >= end || b[pos] < '0' || b[pos] > '9') {
            throw INVALID;
        }
        digits();
    }

    private void digits() {
        while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
            pos++;
        }
    }

    /** A string from its opening quote; true when it holds an escape. UTF-8 sequences are checked. */
    private boolean string() throws Invalid {
        pos++;
        boolean escaped = false;
        while (true) {
            if (pos >= end) {
                throw INVALID;
            }
            int c = b[pos] & 0xff;
            if (c == '"') {
                pos++;
                return escaped;
            }
            if (c == '\\') {
                escaped = true;
                escape();
            } else if (c < 0x20) {
                throw INVALID;
            } else if (c < 0x80) {
                pos++;
            } else {
                utf8(c);
            }
        }
    }

    private void escape() throws Invalid {
        pos++;
        if (pos >= end) {
            throw INVALID;
        }
        switch (b[pos]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> pos++;
            case 'u' -> {
                pos++;
                for (int i = 0; i < 4; i++) {
                    if (pos >= end || Character.digit(b[pos], 16) < 0) {
                        throw INVALID;
                    }
                    pos++;
                }
            }
            default -> throw INVALID;
        }
    }

    /** One multi-byte UTF-8 sequence (no overlong forms, no surrogates, at most U+10FFFF). */
    private void utf8(int lead) throws Invalid {
        int more;
        int min = 0x80;
        int max = 0xbf;
        if (lead >= 0xc2 && lead <= 0xdf) {
            more = 1;
        } else if (lead >= 0xe0 && lead <= 0xef) {
            more = 2;
            if (lead == 0xe0) {
                min = 0xa0;
            } else if (lead == 0xed) {
                max = 0x9f;
            }
        } else if (lead >= 0xf0 && lead <= 0xf4) {
            more = 3;
            if (lead == 0xf0) {
                min = 0x90;
            } else if (lead == 0xf4) {
                max = 0x8f;
            }
        } else {
            throw INVALID;
        }
        pos++;
        for (int i = 0; i < more; i++) {
            if (pos >= end) {
                throw INVALID;
            }
            int c = b[pos] & 0xff;
            if (c < (i == 0 ? min : 0x80) || c > (i == 0 ? max : 0xbf)) {
                throw INVALID;
            }
            pos++;
        }
    }

    private void literal(char c0, char c1, char c2, char c3) throws Invalid {
        expect(c0);
        expect(c1);
        expect(c2);
        expect(c3);
    }

    private void expect(char c) throws Invalid {
        if (pos >= end || b[pos] != c) {
            throw INVALID;
        }
        pos++;
    }

    /** The rare times the scan leaves to the parser, and the lines of merged objects off the common layout. */
    private static long parsedTime(byte[] line, int from, int to) {
        try (JsonParser p = JSON.createParser(line, from, to - from)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new RecordMerger.MalformedRecord(NOT_OBJECT);
            }
            long time = 0;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if ("eventTime".equals(name) && value.isNumeric()) {
                    time = p.getLongValue();
                } else {
                    p.skipChildren();
                }
            }
            return Math.max(0, time);
        } catch (IOException e) {
            // for a checked record: well-formed, but its time does not fit a long
            throw new RecordMerger.MalformedRecord(NOT_JSON);
        }
    }
}
