package io.batchyard.bench;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.batchyard.eventing.Outbox;
import io.batchyard.queue.compaction.Compaction;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.merge.MergeWorker;
import io.batchyard.queue.compaction.store.FileSystemObjectStore;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
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
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;

/**
 * Merge throughput of queue-service's compaction: N small JSON-lines objects over P date partitions, merged by W
 * workers (the real {@link MergeWorker}s, claiming through PostgreSQL), against {@code cat} of the same files as the
 * physical bound. Registration is not timed; merging is, from the first claim until no job is left.
 *
 * <p>Usage: {@code CompactionBenchmark [--objects 10000] [--records 40] [--partitions 20] [--workers 2]
 * [--warmup 2000] [--dir PATH] [--jdbc URL --user U --password P]} (without --jdbc an embedded PostgreSQL is started).
 * The warm-up merges {@code --warmup} objects of another table first, untimed, so that the JIT has compiled the
 * merge path before the measured run.
 */
public final class CompactionBenchmark {

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = LifecycleBenchmark.options(args);
        int objects = Integer.parseInt(opts.getOrDefault("objects", "10000"));
        int records = Integer.parseInt(opts.getOrDefault("records", "40"));
        int partitions = Integer.parseInt(opts.getOrDefault("partitions", "20"));
        int workers = Integer.parseInt(opts.getOrDefault("workers", "2"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "2000"));
        Path dir = Path.of(opts.getOrDefault("dir", "bench/target/compaction-store")).toAbsolutePath();
        deleteTree(dir);

        EmbeddedPostgres pg = null;
        String url = opts.get("jdbc");
        String user = opts.getOrDefault("user", "batchyard");
        String password = opts.getOrDefault("password", "batchyard");
        if (url == null) {
            pg = EmbeddedPostgres.builder().start();
            url = pg.getJdbcUrl("postgres", "postgres");
            user = "postgres";
            password = "";
        }
        // a pool, as in the service (Agroal): a connection per statement would dominate the timing
        AgroalDataSource ds = pool(url, user, password);
        try {
            Flyway.configure().dataSource(ds).locations("classpath:db/eventing", "classpath:db/readmodel",
                    "classpath:db/migration").load().migrate();
            Jdbi jdbi = Jdbi.create(ds).installPlugin(new PostgresPlugin());
            ObjectStore store = new FileSystemObjectStore(dir);
            Compaction compaction = new Compaction(jdbi, store, MergeSettings.defaults(), new Outbox());
            if (warmup > 0) {
                System.out.printf("[bench] warm-up (untimed): %d objects%n", warmup);
                run(compaction, dir, "warmup", warmup, records, partitions, workers, false);
            }
            run(compaction, dir, "events", objects, records, partitions, workers, true);
        } finally {
            ds.close();
            if (pg != null) {
                pg.close();
            }
        }
    }

    private static void run(Compaction c, Path dir, String table, int objects, int records, int partitions, int workers,
                            boolean report) throws Exception {
        String schema = "bench" + (System.currentTimeMillis() % 100_000);
        c.jdbi.useTransaction(tx -> c.tables.register(tx, schema, table, 0, 0));
        LocalDate first = LocalDate.now().plusDays(1);
        Random random = new Random(7);
        long bytes = 0;
        System.out.printf("[bench] writing and registering %d small objects x %d records over %d partitions%n",
                objects, records, partitions);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < objects; i++) {
            String key = "incoming/" + table + "/" + String.format("%06d", i) + ".jsonl";
            StringBuilder body = new StringBuilder();
            for (int r = 0; r < records; r++) {
                body.append("{\"eventTime\":").append(1_700_000_000_000L + random.nextInt(86_400_000))
                        .append(",\"id\":\"").append(i).append('-').append(r)
                        .append("\",\"user\":").append(random.nextInt(1_000_000))
                        .append(",\"action\":\"view\",\"path\":\"/items/").append(random.nextInt(100_000)).append("\"}\n");
            }
            byte[] data = body.toString().getBytes(StandardCharsets.UTF_8);
            try (ObjectStore.PendingObject out = c.store.create(key)) {
                out.stream().write(data);
                out.commit();
            }
            bytes += data.length;
            keys.add(key);
        }
        for (int from = 0; from < keys.size(); from += 500) {
            List<String> chunk = keys.subList(from, Math.min(keys.size(), from + 500));
            int offset = from;
            c.jdbi.useTransaction(tx -> {
                for (int i = 0; i < chunk.size(); i++) {
                    c.registration.register(tx, schema, table, first.plusDays((offset + i) % partitions), chunk.get(i));
                }
            });
        }
        Path incoming = dir.resolve("incoming").resolve(table);
        double catNull = cat(incoming, "/dev/null"); // also warms the page cache for both runs
        catNull = Math.min(catNull, cat(incoming, "/dev/null"));
        double catFile = cat(incoming, dir.resolve("cat-output").toString());
        Files.deleteIfExists(dir.resolve("cat-output"));

        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<int[]>> runs = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < workers; w++) {
            MergeWorker worker = c.worker("bench-" + w);
            runs.add(pool.submit(() -> drain(c, worker)));
        }
        int merges = 0;
        for (Future<int[]> r : runs) {
            merges += r.get()[0];
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);

        long mergedRecords = 0;
        long mergedBytes = 0;
        int ranges = 0;
        for (long pid : c.jdbi.withHandle(h -> h.createQuery("""
                        SELECT partition_id FROM compaction_partition JOIN compaction_table USING (table_id)
                        WHERE schema_name = :s AND table_name = :t""").bind("s", schema).bind("t", table)
                .mapTo(Long.class).list())) {
            for (MergeRange r : c.jdbi.withHandle(h -> c.ranges.ranges(h, pid))) {
                mergedRecords += r.recordCount();
                mergedBytes += r.contentLength();
                ranges++;
            }
        }
        if (mergedRecords != (long) objects * records) {
            throw new IllegalStateException("merged " + mergedRecords + " records, expected " + (long) objects * records);
        }
        if (!report) {
            return;
        }
        System.out.printf("[bench] %d objects, %d bytes (%.1f MB), %d records, %d partitions%n", objects, bytes,
                bytes / 1e6, (long) objects * records, partitions);
        double mbs = bytes / 1e6 / seconds;
        System.out.printf("[bench] merge: %d workers, %d merge runs, %d merged objects, %d bytes out, %.2f s%n",
                workers, merges, ranges, mergedBytes, seconds);
        System.out.printf("[bench] merge throughput: %.1f MB/s, %.0f objects/s, %.0f records/s%n", mbs,
                objects / seconds, objects * (double) records / seconds);
        System.out.printf("[bench] bound: cat of the same %d files > /dev/null: %.3f s = %.1f MB/s, %.0f objects/s%n",
                objects, catNull, bytes / 1e6 / catNull, objects / catNull);
        System.out.printf("[bench] bound: cat of the same %d files > one file: %.3f s = %.1f MB/s%n", objects, catFile,
                bytes / 1e6 / catFile);
        System.out.printf("[bench] merge / cat(/dev/null) = %.1f%% of the physical bound%n", 100 * catNull / seconds);
    }

    private static AgroalDataSource pool(String url, String user, String password) throws java.sql.SQLException {
        return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier().connectionPoolConfiguration(pool -> pool
                .maxSize(8).connectionFactoryConfiguration(factory -> factory.jdbcUrl(url)
                        .principal(new NamePrincipal(user)).credential(new SimplePassword(password)))));
    }

    /** Runs a worker until the whole queue is empty (a continuing job may appear after this worker went idle). */
    private static int[] drain(Compaction c, MergeWorker worker) throws InterruptedException {
        int merges = 0;
        try (worker) {
            while (true) {
                MergeWorker.Outcome o = worker.runOnce();
                if (o == MergeWorker.Outcome.FAILED || o == MergeWorker.Outcome.LEASE_LOST) {
                    throw new IllegalStateException("merge run " + o);
                }
                if (o != MergeWorker.Outcome.IDLE) {
                    merges++;
                    continue;
                }
                long left = c.jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM merge_job").mapTo(Long.class).one());
                if (left == 0) {
                    return new int[] {merges};
                }
                Thread.sleep(5);
            }
        }
    }

    /** Seconds for {@code cat} of every file of {@code folder} into {@code target}. */
    private static double cat(Path folder, String target) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = new ProcessBuilder("sh", "-c", "find . -type f -name '*.jsonl' -print0 | xargs -0 cat > '" + target + "'")
                .directory(folder.toFile()).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("cat failed");
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
