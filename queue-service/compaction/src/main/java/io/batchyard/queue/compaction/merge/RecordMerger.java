package io.batchyard.queue.compaction.merge;

import io.batchyard.queue.compaction.store.LinkRefusedException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Merges JSON-lines objects into one, sorted by the records' {@code eventTime} (epoch milliseconds, a top-level
 * number; records without one sort as the epoch, as in the reference). Each line is copied byte for byte: merging
 * never rewrites a record, so "every record exactly once" is checkable on the text.
 *
 * <p>Ties keep input order (the old merged object first, then small objects by id, then line order), so a redone merge
 * of the same inputs produces the same bytes. The old merged object is already sorted and is streamed; small objects
 * are small and are read whole: each of their records is checked as JSON ({@link JsonRecord}, one pass, nothing built)
 * and their lines, slices of the object's bytes, are sorted together in memory (stable). The old object's lines are
 * read from a buffer and its common layout's time without a parser. Lines stay bytes from input to output: nothing is
 * decoded except the event time, and no line is copied except into the output buffer.
 */
public final class RecordMerger {

    public static final int PROGRESS_EVERY = 1000;
    private static final Comparator<Line> BY_TIME = Comparator.comparingLong(Line::eventTime);

    /** One input, opened on demand. */
    public interface Source {
        InputStream open() throws IOException;
    }

    /** A record that is not a JSON object. */
    public static final class MalformedRecord extends RuntimeException {
        MalformedRecord(String message) {
            super(message, null, false, false);
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

    /** A line of a small object: {@code bytes[start, end)}, without its line break. */
    private record Line(long eventTime, byte[] bytes, int start, int end) {
    }

    /**
     * @param sortedSource the open range's merged object (already sorted), or null
     * @param smallObjects the new small objects, ids ascending
     * @param progress     told the running count every {@link #PROGRESS_EVERY} records (after a flush)
     * @return records written
     */
    public long merge(Source sortedSource, List<Source> smallObjects, OutputStream out, LongConsumer progress)
            throws IOException {
        List<Line> fresh = new ArrayList<>();
        for (int i = 0; i < smallObjects.size(); i++) {
            byte[] bytes;
            try (InputStream in = smallObjects.get(i).open()) {
                bytes = in.readAllBytes();
            } catch (NoSuchFileException e) {
                throw new BadObject(i, null, "the object is not in the store");
            } catch (LinkRefusedException e) {
                throw new BadObject(i, null, "the object's stored copy is a symbolic link");
            }
            split(i, bytes, fresh);
        }
        fresh = sortByTime(fresh);
        Output sink = new Output(out, progress);
        int next = 0;
        if (sortedSource != null) {
            try (InputStream old = sortedSource.open()) {
                next = mergeSorted(old, fresh, sink);
            }
        }
        for (; next < fresh.size(); next++) {
            sink.line(fresh.get(next));
        }
        sink.out.flush();
        return sink.written;
    }

    /**
     * Sorted by time, stably: ties keep the objects' order, then their lines' order. When every time fits beside the
     * line's index in one long, the (time, index) keys are sorted as primitives (a comparator sort of the records was
     * most of a merge's CPU); otherwise a stable comparator sort.
     */
    private static List<Line> sortByTime(List<Line> lines) {
        int n = lines.size();
        int indexBits = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
        long maxTime = 0;
        for (Line l : lines) {
            maxTime = Math.max(maxTime, l.eventTime());
        }
        if (Long.numberOfLeadingZeros(maxTime) <= indexBits) {
            lines.sort(BY_TIME);
            return lines;
        }
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = lines.get(i).eventTime() << indexBits | i; // times are never negative
        }
        Arrays.sort(keys);
        long mask = (1L << indexBits) - 1;
        List<Line> sorted = new ArrayList<>(n);
        for (long key : keys) {
            sorted.add(lines.get((int) (key & mask)));
        }
        return sorted;
    }

    /** Lines written, with a flush and a progress report every {@link #PROGRESS_EVERY}. */
    private static final class Output {
        final OutputStream out;
        final LongConsumer progress;
        long written;

        Output(OutputStream out, LongConsumer progress) {
            this.out = new BufferedOutputStream(out, 1 << 18);
            this.progress = progress;
        }

        void line(Line l) throws IOException {
            write(l.bytes(), l.start(), l.end());
        }

        void write(byte[] b, int from, int to) throws IOException {
            out.write(b, from, to - from);
            out.write('\n');
            if (++written % PROGRESS_EVERY == 0) {
                out.flush();
                progress.accept(written);
            }
        }
    }

    /**
     * Streams the old merged object and writes each of its lines after the new lines that sort strictly before it (so
     * on equal times the old object's lines come first); returns the index of the first new line not yet written.
     */
    private static int mergeSorted(InputStream in, List<Line> fresh, Output sink) throws IOException {
        byte[] buf = new byte[1 << 16];
        int start = 0;
        int limit = 0;
        int scanned = 0;
        int next = 0;
        while (true) {
            int nl = indexOf(buf, scanned, limit);
            if (nl >= 0) {
                next = oldLine(buf, start, nl, fresh, next, sink);
                start = nl + 1;
                scanned = start;
                continue;
            }
            if (start > 0) {
                System.arraycopy(buf, start, buf, 0, limit - start);
                limit -= start;
                start = 0;
            }
            if (limit == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2); // a line longer than the buffer
            }
            scanned = limit;
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                return limit > 0 ? oldLine(buf, 0, limit, fresh, next, sink) : next;
            }
            limit += n;
        }
    }

    private static int indexOf(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int oldLine(byte[] buf, int from, int to, List<Line> fresh, int next, Output sink)
            throws IOException {
        int end = to > from && buf[to - 1] == '\r' ? to - 1 : to;
        if (blank(buf, from, end)) {
            return next;
        }
        long time = JsonRecord.mergedRecordTime(buf, from, end);
        while (next < fresh.size() && fresh.get(next).eventTime() < time) {
            sink.line(fresh.get(next++));
        }
        sink.write(buf, from, end);
        return next;
    }

    /** Adds the non-blank lines of the {@code input}-th small object; the first malformed one names its line. */
    private static void split(int input, byte[] bytes, List<Line> lines) {
        int start = 0;
        int lineNumber = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                lineNumber++;
                int end = i > start && bytes[i - 1] == '\r' ? i - 1 : i;
                if (!blank(bytes, start, end)) {
                    try {
                        lines.add(new Line(JsonRecord.eventTime(bytes, start, end), bytes, start, end));
                    } catch (MalformedRecord e) {
                        throw new BadObject(input, lineNumber, e.getMessage());
                    }
                }
                start = i + 1;
            }
        }
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    /** The top-level {@code eventTime} of a JSON object line; 0 when absent, null or negative. */
    static long eventTime(String line) {
        return eventTime(line.getBytes(StandardCharsets.UTF_8));
    }

    /** The same, for a line's bytes; the whole record is checked ({@link JsonRecord}). */
    static long eventTime(byte[] line) {
        return JsonRecord.eventTime(line, 0, line.length);
    }
}
