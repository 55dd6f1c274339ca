package io.batchyard.queue.compaction.merge;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * are small and are sorted in memory (stable, linear when already sorted).
 */
public final class RecordMerger {

    public static final int PROGRESS_EVERY = 1000;
    private static final JsonFactory JSON = new JsonFactory();

    /** One input, opened on demand. */
    public interface Source {
        InputStream open() throws IOException;
    }

    /** A record that is not a JSON object; the object is poison, the job fails and eventually dead-letters. */
    public static final class MalformedRecord extends RuntimeException {
        MalformedRecord(String message) {
            super(message);
        }
    }

    private record Line(long eventTime, String text) {
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
        List<AutoCloseable> open = new ArrayList<>();
        try {
            PriorityQueue<Cursor> heads = new PriorityQueue<>(Comparator.<Cursor>comparingLong(c -> c.head.eventTime())
                    .thenComparingInt(c -> c.order));
            int order = 0;
            if (sortedSource != null) {
                BufferedReader reader = reader(sortedSource);
                open.add(reader);
                addIfAny(heads, order, new LineIterator(reader));
            }
            for (Source s : smallObjects) {
                order++;
                List<Line> lines = new ArrayList<>();
                try (BufferedReader reader = reader(s)) {
                    new LineIterator(reader).forEachRemaining(lines::add);
                }
                lines.sort(Comparator.comparingLong(Line::eventTime));
                addIfAny(heads, order, lines.iterator());
            }
            Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            long written = 0;
            while (!heads.isEmpty()) {
                Cursor c = heads.poll();
                writer.write(c.head.text());
                writer.write('\n');
                if (++written % PROGRESS_EVERY == 0) {
                    writer.flush();
                    progress.accept(written);
                }
                if (c.advance()) {
                    heads.add(c);
                }
            }
            writer.flush();
            return written;
        } finally {
            for (AutoCloseable c : open) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // input streams only
                }
            }
        }
    }

    private static void addIfAny(PriorityQueue<Cursor> heads, int order, Iterator<Line> lines) {
        if (lines.hasNext()) {
            heads.add(new Cursor(order, lines));
        }
    }

    private static BufferedReader reader(Source s) throws IOException {
        return new BufferedReader(new InputStreamReader(s.open(), StandardCharsets.UTF_8), 1 << 16);
    }

    /** Non-blank lines of a reader, each with its event time. */
    private static final class LineIterator implements Iterator<Line> {
        private final BufferedReader reader;
        private Line next;

        LineIterator(BufferedReader reader) {
            this.reader = reader;
        }

        @Override
        public boolean hasNext() {
            if (next != null) {
                return true;
            }
            try {
                for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                    if (!text.isBlank()) {
                        next = new Line(eventTime(text), text);
                        return true;
                    }
                }
                return false;
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
    }

    /** The top-level {@code eventTime} of a JSON object line; 0 when absent or null. */
    static long eventTime(String line) {
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
