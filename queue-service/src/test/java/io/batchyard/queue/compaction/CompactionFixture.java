package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.MergeWorker;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Small objects with known records for compaction tests: every record carries a unique id, so the merged output can
 * be checked for "every record exactly once" and for event-time order.
 */
public final class CompactionFixture {

    private static final Pattern RECORD = Pattern.compile("\\{\"eventTime\":(\\d+),\"id\":\"([^\"]+)\"");

    public final Compaction compaction;
    /** The store of the fixture's table, where its objects are written and merged. */
    public final ObjectStore store;
    public final String schema;
    public final String table;
    public final LocalDate date;
    /** Every record id written so far, per partition. */
    private final Map<Long, List<String>> written = new HashMap<>();
    private final Random random = new Random(42);

    public CompactionFixture(Compaction compaction, int mergeIntervalSeconds) {
        this(compaction, TestStore.FILESYSTEM, mergeIntervalSeconds);
    }

    public CompactionFixture(Compaction compaction, TestStore store, int mergeIntervalSeconds) {
        // tomorrow (UTC): the catalog step never closes it on its own
        this(compaction, store, mergeIntervalSeconds, LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1));
    }

    public CompactionFixture(Compaction compaction, int mergeIntervalSeconds, LocalDate date) {
        this(compaction, TestStore.FILESYSTEM, mergeIntervalSeconds, date);
    }

    /** A fresh table whose objects live in {@code store}. */
    public CompactionFixture(Compaction compaction, TestStore store, int mergeIntervalSeconds, LocalDate date) {
        this(compaction, store, mergeIntervalSeconds, date, "s" + QueueFixtures.nextId());
    }

    /**
     * The table {@code schema}.events (registered here unless it is already, with the same definition) whose objects
     * live in {@code store}: for a test that registered the table itself, over REST.
     */
    public CompactionFixture(Compaction compaction, TestStore store, int mergeIntervalSeconds, String schema) {
        this(compaction, store, mergeIntervalSeconds, LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1), schema);
    }

    private CompactionFixture(Compaction compaction, TestStore store, int mergeIntervalSeconds, LocalDate date,
                              String schema) {
        this.compaction = compaction;
        this.schema = schema;
        this.table = "events";
        this.date = date;
        await(() -> compaction.tables.register(schema, table, mergeIntervalSeconds, 0, store.location()));
        this.store = compaction.stores.of(store.location());
    }

    /**
     * Writes an object of {@code records} records (unsorted on purpose) plus {@code padding} bytes per record, in the
     * table's folder of its store, where producers put what they register.
     */
    public String write(int records, int padding) {
        String key = folder() + "incoming/" + QueueFixtures.nextId() + ".jsonl";
        String pad = "x".repeat(padding);
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < records; i++) {
            body.append("{\"eventTime\":").append(1_700_000_000_000L + random.nextInt(1_000_000))
                    .append(",\"id\":\"").append(key).append('#').append(i).append("\",\"pad\":\"").append(pad).append("\"}\n");
        }
        try (ObjectStore.PendingObject out = store.create(key)) {
            out.stream().write(body.toString().getBytes(StandardCharsets.UTF_8));
            out.commit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return key;
    }

    /** Writes {@code body} under a key of the table's folder named {@code name} (replacing it: new file, rename). */
    public String raw(String name, String body) {
        String key = folder() + "incoming/" + name + ".jsonl";
        try (ObjectStore.PendingObject out = store.create(key)) {
            out.stream().write(body.getBytes(StandardCharsets.UTF_8));
            out.commit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return key;
    }

    /** The table's folder in its store: the keys registered for it start so. */
    public String folder() {
        return ObjectKeys.tableFolder(schema, table);
    }

    /** The partition of {@link #arriveAroundMalformed}, and its malformed object's key and id. */
    public record Malformed(long partitionId, String key, long objectId) {
    }

    /**
     * Writes and registers {@code before} good objects (of five records), then "bad": a good record ({@code bad#1})
     * and a line that is not JSON, so a merge quarantines it at line 2 (untracked: its record is the test's to check),
     * then one more good object, merged all the same.
     */
    public Malformed arriveAroundMalformed(int before) {
        long partition = arrive(before, 5, 0);
        String key = raw("bad", "{\"eventTime\":1,\"id\":\"bad#1\"}\nnot json\n");
        long id = registerUntracked(key);
        arrive(1, 5, 0);
        return new Malformed(partition, key, id);
    }

    /** Registers without the fixture's bookkeeping: such records are checked by the test, not by "exactly once". */
    public long registerUntracked(String key) {
        return await(() -> compaction.registration.register(schema, table, date, key)).object().objectId();
    }

    public ObjectRegistrationService.Registered register(String key) {
        return register(key, date);
    }

    public ObjectRegistrationService.Registered register(String key, LocalDate day) {
        ObjectRegistrationService.Registered r = await(() -> compaction.registration.register(schema, table, day, key));
        if (r.created()) {
            written.computeIfAbsent(r.object().partitionId(), p -> new ArrayList<>()).addAll(idsIn(key));
        }
        return r;
    }

    /** Counts the records of an object registered elsewhere (over REST, by an event) as written to the partition. */
    public void written(long partitionId, String key) {
        written.computeIfAbsent(partitionId, p -> new ArrayList<>()).addAll(idsIn(key));
    }

    /** Writes and registers {@code count} objects; returns the partition id. */
    public long arrive(int count, int records, int padding) {
        long partition = -1;
        for (int i = 0; i < count; i++) {
            partition = register(write(records, padding)).object().partitionId();
        }
        return partition;
    }

    public Partition partition(long id) {
        return await(() -> compaction.partitions.find(id)).orElseThrow();
    }

    public List<MergeRange> ranges(long partitionId) {
        return await(() -> compaction.ranges.ranges(partitionId));
    }

    /** Runs the worker until no job is due. */
    public static List<MergeWorker.Outcome> drain(MergeWorker worker) {
        List<MergeWorker.Outcome> outcomes = new ArrayList<>();
        for (MergeWorker.Outcome o = worker.runOnce(); o != MergeWorker.Outcome.IDLE; o = worker.runOnce()) {
            outcomes.add(o);
        }
        return outcomes;
    }

    /** The partition's merged output: every record id exactly once, each range sorted by event time, sizes true. */
    public void assertMergedExactlyOnce(long partitionId) {
        Partition p = partition(partitionId);
        List<String> merged = new ArrayList<>();
        for (MergeRange r : ranges(partitionId)) {
            String key = ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), r.lowerBound(), r.upperBound());
            long last = Long.MIN_VALUE;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(store.open(key), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    Matcher m = RECORD.matcher(line);
                    assertThat(m.find()).as("record %s", line).isTrue();
                    long time = Long.parseLong(m.group(1));
                    assertThat(time).as("event-time order in %s", key).isGreaterThanOrEqualTo(last);
                    last = time;
                    merged.add(m.group(2));
                }
                assertThat(store.size(key)).isEqualTo(r.contentLength());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(merged).as("every record of every small object exactly once")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(written.getOrDefault(partitionId, List.of()));
    }

    /** The text of the partition's merged objects, range after range. */
    public String mergedText(long partitionId) {
        Partition p = partition(partitionId);
        StringBuilder text = new StringBuilder();
        for (MergeRange r : ranges(partitionId)) {
            try (InputStream in = store.open(ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), r.lowerBound(),
                    r.upperBound()))) {
                text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return text.toString();
    }

    public int recordsWritten(long partitionId) {
        return written.getOrDefault(partitionId, List.of()).size();
    }

    private List<String> idsIn(String key) {
        List<String> ids = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(store.open(key), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                Matcher m = RECORD.matcher(line);
                if (m.find()) {
                    ids.add(m.group(2));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ids;
    }
}
