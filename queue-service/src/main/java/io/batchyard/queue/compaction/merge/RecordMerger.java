package io.batchyard.queue.compaction.merge;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.LongConsumer;

/**
 * Merges JSON-lines objects into one, sorted by the records' {@code eventTime} (epoch milliseconds, a top-level
 * number; records without one sort as the epoch, as in the reference). Each line is copied byte for byte: merging
 * never rewrites a record, so "every record exactly once" is checkable on the text.
 *
 * <p>Ties keep input order (the old merged object first, then small objects by id, then line order), so a redone merge
 * of the same inputs produces the same bytes. The old merged object is already sorted and is streamed; small objects
 * are small and are sorted in memory (stable, linear when already sorted). Lines stay bytes from input to output:
 * nothing is decoded except the event time.
 */
public final class RecordMerger {

    public static final int PROGRESS_EVERY = 1000;
    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] FAST_PREFIX = "{\"eventTime\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** One input, opened on demand. */
    public interface Source {
        InputStream open() throws IOException;
    }

    /** A record that is not a JSON object. */
    public static final class MalformedRecord extends RuntimeException {
        MalformedRecord(String message) {
            super(message);
        }
    }

    /**
     * One small object cannot be merged: a record of it is not a JSON object ({@code lineNumber} 1-based, counting
     * blank lines too, so an operator finds it in an editor), or it is not in the store ({@code lineNumber} null). The
     * object is bad data, not a broken store: the caller sets it aside and merges the rest. Nothing was written yet
     * when this is thrown, since every small object is read before the first output line.
     */
    public static final class BadObject extends RuntimeException {
        private final int input;
        private final Integer lineNumber;

        BadObject(int input, Integer lineNumber, String message) {
            super(message, null, false, false);
            this.input = input;
            this.lineNumber = lineNumber;
        }

        /** Index of the object in the list given to {@link #merge}. */
        public int input() {
            return input;
        }

        public Integer lineNumber() {
            return lineNumber;
        }
    }

    private record Line(long eventTime, byte[] text) {
    }

    private static final class Cursor {
        final int order;
        final Iterator<Line> lines;
        Line head;

        Cursor(int order, Iterator<Line> lines) {
            this.order = order;
            this.lines = lines;
            this.head = lines.next();
        }

        boolean advance() {
            head = lines.hasNext() ? lines.next() : null;
            return head != null;
        }
    }

    /**
     * @param sortedSource the open range's merged object (already sorted), or null
     * @param smallObjects the new small objects, ids ascending
     * @param progress     told the running count every {@link #PROGRESS_EVERY} records (after a flush)
     * @return records written
     */
    public long merge(Source sortedSource, List<Source> smallObjects, OutputStream out, LongConsumer progress)
            throws IOException {
        InputStream old = sortedSource == null ? null : sortedSource.open();
        try {
            PriorityQueue<Cursor> heads = new PriorityQueue<>(Comparator.<Cursor>comparingLong(c -> c.head.eventTime())
                    .thenComparingInt(c -> c.order));
            int order = 0;
            if (old != null) {
                addIfAny(heads, order, new StreamLines(old));
            }
            for (Source s : smallObjects) {
                order++;
                byte[] bytes;
                try (InputStream in = s.open()) {
                    bytes = in.readAllBytes();
                } catch (NoSuchFileException e) {
                    throw new BadObject(order - 1, null, "the object is not in the store");
                }
                List<Line> lines = split(order - 1, bytes);
                lines.sort(Comparator.comparingLong(Line::eventTime));
                addIfAny(heads, order, lines.iterator());
            }
            OutputStream sink = new BufferedOutputStream(out, 1 << 16);
            long written = 0;
            while (!heads.isEmpty()) {
                Cursor c = heads.poll();
                sink.write(c.head.text());
                sink.write('\n');
                if (++written % PROGRESS_EVERY == 0) {
                    sink.flush();
                    progress.accept(written);
                }
                if (c.advance()) {
                    heads.add(c);
                }
            }
            sink.flush();
            return written;
        } finally {
            if (old != null) {
                old.close();
            }
        }
    }

    private static void addIfAny(PriorityQueue<Cursor> heads, int order, Iterator<Line> lines) {
        if (lines.hasNext()) {
            heads.add(new Cursor(order, lines));
        }
    }

    /** Non-blank lines of a whole small object, the {@code input}-th; the first malformed one names its line. */
    private static List<Line> split(int input, byte[] bytes) {
        List<Line> lines = new ArrayList<>();
        int start = 0;
        int lineNumber = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                lineNumber++;
                int end = i > start && bytes[i - 1] == '\r' ? i - 1 : i;
                if (!blank(bytes, start, end)) {
                    byte[] text = Arrays.copyOfRange(bytes, start, end);
                    try {
                        lines.add(new Line(eventTime(text), text));
                    } catch (MalformedRecord e) {
                        throw new BadObject(input, lineNumber, e.getMessage());
                    }
                }
                start = i + 1;
            }
        }
        return lines;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    /** Non-blank lines of a streamed (large, sorted) object. */
    private static final class StreamLines implements Iterator<Line> {
        private final InputStream in;
        private final byte[] buffer = new byte[1 << 16];
        private int pos;
        private int limit;
        private Line next;

        StreamLines(InputStream in) {
            this.in = in;
        }

        @Override
        public boolean hasNext() {
            try {
                while (next == null) {
                    byte[] text = readLine();
                    if (text == null) {
                        return false;
                    }
                    if (!blank(text, 0, text.length)) {
                        next = new Line(eventTime(text), text);
                    }
                }
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Line next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Line l = next;
            next = null;
            return l;
        }

        private byte[] readLine() throws IOException {
            java.io.ByteArrayOutputStream partial = null;
            while (true) {
                if (pos == limit) {
                    limit = in.read(buffer);
                    pos = 0;
                    if (limit <= 0) {
                        limit = 0;
                        return partial == null ? null : partial.toByteArray();
                    }
                }
                for (int i = pos; i < limit; i++) {
                    if (buffer[i] == '\n') {
                        int end = i > pos && buffer[i - 1] == '\r' ? i - 1 : i;
                        byte[] line;
                        if (partial == null) {
                            line = Arrays.copyOfRange(buffer, pos, end);
                        } else {
                            partial.write(buffer, pos, end - pos);
                            line = partial.toByteArray();
                        }
                        pos = i + 1;
                        return line;
                    }
                }
                if (partial == null) {
                    partial = new java.io.ByteArrayOutputStream();
                }
                partial.write(buffer, pos, limit - pos);
                pos = limit;
            }
        }
    }

    /** The top-level {@code eventTime} of a JSON object line; 0 when absent, null or negative. */
    static long eventTime(String line) {
        return eventTime(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static long eventTime(byte[] line) {
        // Fast path for the common layout {"eventTime":<digits>, ... }; anything else goes through the JSON parser.
        // Neither validates the whole record: records are copied verbatim, only their time is read.
        if (line.length > FAST_PREFIX.length && Arrays.equals(line, 0, FAST_PREFIX.length, FAST_PREFIX, 0, FAST_PREFIX.length)) {
            long value = 0;
            int i = FAST_PREFIX.length;
            int digits = 0;
            while (i < line.length && line[i] >= '0' && line[i] <= '9' && digits < 18) {
                value = value * 10 + (line[i++] - '0');
                digits++;
            }
            if (digits > 0 && i < line.length && (line[i] == ',' || line[i] == '}')) {
                return value;
            }
        }
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedRecord("a record is not a JSON object");
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
            throw new MalformedRecord("a record is not valid JSON");
        }
    }
}
