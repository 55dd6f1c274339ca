package io.batchyard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Compaction throughput of a running queue-service: N small JSON-lines objects over P date partitions are written to
 * the service's object store and registered over REST; the service's own merge workers (claiming through PostgreSQL)
 * merge them. {@code cat} of the same files (page cache warm, as for the merge) is the physical bound. Afterwards every
 * partition is closed and published, and the records of its manifest are counted: the run fails unless every record
 * arrived exactly once.
 *
 * <p>Two phases, each timed on its own. <b>Registration</b>: the table's merge interval is a day, so the objects wait
 * registered (and placed) while the REST clients register them; no merge may run meanwhile (checked). <b>Merge</b>:
 * timed from the first {@code POST /compaction/partitions/{id}/merge} (merge now) until no merge job is left — every
 * object read, each record checked as JSON, sorted, written, forced to disk and its range committed. The RESULT line
 * compares that merge throughput with {@code cat}'s; registration plus merge is printed too (that one is bounded by
 * the REST registrations, thousands of HTTP requests and transactions, not by merging).
 *
 * <p>Usage: {@code CompactionBenchmark --queue URL --store DIR [--objects 10000] [--records 40] [--partitions 20]
 * [--clients 4] [--warmup 2000]}. The warm-up merges {@code --warmup} objects of another table first, untimed, so that
 * the JIT has compiled the merge path before the measured run. {@code BATCHYARD_TOKEN} holds a bearer token of roles
 * developer (registering the table) and operator (registering objects, merge now).
 */
public final class CompactionBenchmark {

    /** The merge interval of the benchmark's tables: long enough that nothing merges before merge-now. */
    private static final int HOLD_SECONDS = 86_400;

    private final Http http = new Http();
    private final String queue;
    private final Path store;
    private final int clients;

    private CompactionBenchmark(String queue, Path store, int clients) {
        this.queue = queue;
        this.store = store;
        this.clients = clients;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = Bench.options(args);
        int objects = Integer.parseInt(opts.getOrDefault("objects", "10000"));
        int records = Integer.parseInt(opts.getOrDefault("records", "40"));
        int partitions = Integer.parseInt(opts.getOrDefault("partitions", "20"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "2000"));
        CompactionBenchmark bench = new CompactionBenchmark(opts.getOrDefault("queue", "http://127.0.0.1:8083"),
                Path.of(opts.getOrDefault("store", "data/compaction")).toAbsolutePath(),
                Integer.parseInt(opts.getOrDefault("clients", "4")));
        String schema = "bench" + (System.currentTimeMillis() % 100_000);
        if (warmup > 0) {
            System.out.printf("[bench] warm-up (untimed): %d objects%n", warmup);
            bench.run(schema, "warmup", warmup, records, partitions, false);
        }
        bench.run(schema, "events", objects, records, partitions, true);
    }

    private void run(String schema, String table, int objects, int records, int partitions, boolean report)
            throws Exception {
        long tableId = http.expect(201, "POST", queue + "/compaction/tables",
                Map.of("schemaName", schema, "tableName", table, "mergeIntervalSeconds", HOLD_SECONDS,
                        "zoneOffsetMinutes", 0))
                .get("tableId").asLong();
        // Future dates: no partition closes by itself while the run is under way.
        LocalDate first = LocalDate.now().plusDays(1);
        // the table's folder of the store, where queue-service takes a table's objects from
        Path incoming = store.resolve(schema).resolve(table).resolve("incoming");
        System.out.printf("[bench] writing %d small objects x %d records over %d partitions%n", objects, records,
                partitions);
        long bytes = write(incoming, objects, records);
        // The files just written are dirty in the page cache: write them back now, so that neither cat nor the merge's
        // own fsyncs pay for the benchmark's writing.
        run(incoming, "sync");
        double catNull = cat(incoming, "/dev/null"); // also warms the page cache for both runs
        catNull = Math.min(catNull, cat(incoming, "/dev/null"));

        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> registrations = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            registrations.add(pool.submit(() -> {
                for (int i = client; i < objects; i += clients) {
                    http.expect(201, "POST", queue + "/compaction/objects", Map.of("schemaName", schema,
                            "tableName", table, "partitionDate", first.plusDays(i % partitions).toString(),
                            "objectKey", store.relativize(incoming.resolve(name(i))).toString()));
                }
            }));
        }
        for (Future<?> r : registrations) {
            r.get();
        }
        pool.shutdown();
        double registered = (System.nanoTime() - start) / 1e9;
        if (jobs("ONGOING") > 0 || !ranges(tableId).isEmpty()) {
            throw new IllegalStateException("a merge ran during registration: the merge interval did not hold them");
        }

        List<Long> partitionIds = new ArrayList<>();
        partitions(tableId).forEach(p -> partitionIds.add(p.get("partitionId").asLong()));
        long mergeStart = System.nanoTime();
        // merge now, by the same clients in parallel, as an operator's script would
        ExecutorService triggers = Executors.newFixedThreadPool(clients);
        List<Future<?>> triggered = new ArrayList<>();
        for (long id : partitionIds) {
            triggered.add(triggers.submit(() -> http.expect(200, "POST", queue + "/compaction/partitions/" + id
                    + "/merge", null)));
        }
        for (Future<?> t : triggered) {
            t.get();
        }
        triggers.shutdown();
        // One light request per poll (jobs of every state), so that polling takes little from the merge it waits for.
        for (int poll = 1; jobs(null) > 0; poll++) {
            if (poll % 100 == 0 && jobs("DEAD") > 0) {
                throw new IllegalStateException("a merge job died");
            }
            Thread.sleep(10);
        }
        double mergeSeconds = (System.nanoTime() - mergeStart) / 1e9;
        double seconds = (System.nanoTime() - start) / 1e9;

        long merged = publishAndCount(tableId);
        if (merged != (long) objects * records) {
            throw new IllegalStateException("manifests hold " + merged + " records, expected " + (long) objects * records);
        }
        if (!report) {
            return;
        }
        System.out.printf("[bench] %d objects, %d bytes (%.1f MB), %d records, %d partitions, %d REST clients%n",
                objects, bytes, bytes / 1e6, (long) objects * records, partitions, clients);
        System.out.printf("[bench] registration: %.2f s (%.0f objects/s over REST)%n", registered,
                objects / registered);
        System.out.printf("[bench] merge: %.3f s from merge-now to no job left: %.1f MB/s, %.0f objects/s, %.0f records/s%n",
                mergeSeconds, bytes / 1e6 / mergeSeconds, objects / mergeSeconds, objects * (double) records / mergeSeconds);
        System.out.printf("[bench] registration + merge: %.2f s = %.1f MB/s%n", seconds, bytes / 1e6 / seconds);
        System.out.printf("[bench] bound: cat of the same %d files > /dev/null: %.3f s = %.1f MB/s%n", objects, catNull,
                bytes / 1e6 / catNull);
        System.out.printf("[bench] compaction objects=%d records=%d seconds=%.3f objects_per_s=%.0f%n", objects,
                (long) objects * records, mergeSeconds, objects / mergeSeconds);
        // The last line, in the one format scripts read: merge and cat throughput over the same bytes, and their ratio.
        double mergeMbs = bytes / 1e6 / mergeSeconds;
        double catMbs = bytes / 1e6 / catNull;
        System.out.printf(java.util.Locale.ROOT, "RESULT merge_mb_s=%.1f cat_mb_s=%.1f ratio=%.3f%n", mergeMbs, catMbs,
                mergeMbs / catMbs);
    }

    private long write(Path dir, int objects, int records) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(7);
        long bytes = 0;
        for (int i = 0; i < objects; i++) {
            StringBuilder body = new StringBuilder();
            for (int r = 0; r < records; r++) {
                body.append("{\"eventTime\":").append(1_700_000_000_000L + random.nextInt(86_400_000))
                        .append(",\"id\":\"").append(i).append('-').append(r)
                        .append("\",\"user\":").append(random.nextInt(1_000_000))
                        .append(",\"action\":\"view\",\"path\":\"/items/").append(random.nextInt(100_000)).append("\"}\n");
            }
            byte[] data = body.toString().getBytes(StandardCharsets.UTF_8);
            Files.write(dir.resolve(name(i)), data);
            bytes += data.length;
        }
        return bytes;
    }

    private static String name(int i) {
        return String.format("%06d.jsonl", i);
    }

    /** Merge jobs in a state (null: any), over every table (the warm-up's are all done by then). */
    private long jobs(String state) {
        return http.expect(200, "GET", queue + "/compaction/jobs?limit=1" + (state == null ? "" : "&state=" + state),
                null).get("total").asLong();
    }

    private List<JsonNode> ranges(long tableId) {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode p : partitions(tableId)) {
            http.expect(200, "GET", queue + "/compaction/partitions/" + p.get("partitionId").asLong() + "/ranges?limit=10",
                    null).get("items").forEach(all::add);
        }
        return all;
    }

    private JsonNode partitions(long tableId) {
        return http.expect(200, "GET", queue + "/compaction/partitions?tableId=" + tableId + "&limit=500", null)
                .get("items");
    }

    /** Closes every partition, lets the catalog switch and publish them, and counts the records of the manifests. */
    private long publishAndCount(long tableId) {
        for (JsonNode p : partitions(tableId)) {
            http.expect(200, "POST", queue + "/compaction/partitions/" + p.get("partitionId").asLong() + "/close", null);
        }
        http.expect(200, "POST", queue + "/compaction/catalog/sync", null);
        long records = 0;
        for (JsonNode p : partitions(tableId)) {
            JsonNode manifest = http.expect(200, "GET", queue + "/compaction/partitions/"
                    + p.get("partitionId").asLong() + "/manifest", null);
            for (JsonNode entry : manifest.get("manifest").get("entries")) {
                records += lines(entry.get("url").asText());
            }
        }
        return records;
    }

    private long lines(String url) {
        Path file = url.startsWith("file:") ? Path.of(URI.create(url)) : store.resolve(url);
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void run(Path dir, String... command) throws Exception {
        if (new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start().waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed");
        }
    }

    private static double cat(Path dir, String out) throws Exception {
        long start = System.nanoTime();
        Process p = new ProcessBuilder("sh", "-c", "find . -type f -name '*.jsonl' -print0 | xargs -0 cat > \"$1\"",
                "cat", out).directory(dir.toFile()).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("cat failed");
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
