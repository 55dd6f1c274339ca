package io.batchyard.bench;

import io.batchyard.events.execution.DeadlineChanged;
import io.batchyard.schemas.Topics;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Many data deadlines due in the same minute: how late is each MISSED event on the topic? Registers N parents, then
 * gives each the same deadline, a daily cron fire in UTC a few minutes ahead with finish-by PT0S, so that all N are
 * due at the same instant and none has a run. Measures, per deadline, the moment the client's poll returned its
 * MISSED DeadlineChanged minus the deadline's due time (both the machine's wall clock: the stack runs on it).
 *
 * <pre>RESULT deadlines=N missed_p50_ms=… missed_p99_ms=… missed_max_ms=… set=N/N missed=N/N duplicates=…</pre>
 */
public final class DeadlineBenchmark {

    private DeadlineBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = Bench.options(args);
        Bench.Endpoints at = Bench.Endpoints.of(opts);
        int n = Integer.parseInt(opts.getOrDefault("deadlines", "10000"));
        int threads = Integer.parseInt(opts.getOrDefault("threads", "8"));
        Http http = new Http();
        long app = Bench.application(http, at.registry(), "deadline benchmark");

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long started = System.nanoTime();
        List<Long> parents = all(pool, n, i -> Bench.process(http, at.registry(), app, 1, null, null, List.of()));
        Duration perCall = Duration.ofNanos((System.nanoTime() - started) / n);
        System.out.printf("[deadlines] %d parents registered in %d s%n", n,
                Duration.ofNanos(System.nanoTime() - started).toSeconds());

        // Due at the start of a minute far enough ahead for every PUT and for execution-service to materialise them.
        Instant due = ZonedDateTime.now(ZoneOffset.UTC).plus(perCall.multipliedBy(n).multipliedBy(2))
                .plusSeconds(90).truncatedTo(ChronoUnit.MINUTES).plusMinutes(1).toInstant();
        ZonedDateTime fire = due.atZone(ZoneOffset.UTC);
        String cron = fire.getMinute() + " " + fire.getHour() + " * * *";
        System.out.printf("[deadlines] all due at %s (cron '%s' UTC, finish-by PT0S)%n", due, cron);

        Set<Long> ours = ConcurrentHashMap.newKeySet();
        ours.addAll(parents);
        Set<Long> set = ConcurrentHashMap.newKeySet();
        Map<Long, Long> missedDelay = new ConcurrentHashMap<>();
        List<Long> duplicates = Collections.synchronizedList(new ArrayList<>());
        try (EventTap tap = EventTap.start(at.kafka(), at.schemaRegistry(), List.of(Topics.EXECUTION_DEADLINES),
                (event, arrival) -> {
                    if (!(event instanceof DeadlineChanged d) || !ours.contains(d.getProcessId())) {
                        return;
                    }
                    if ("SET".equals(d.getState())) {
                        set.add(d.getDeadlineId());
                    } else if ("MISSED".equals(d.getState())) {
                        long late = (arrival.wallMs() - d.getDueAt().toEpochMilli()) * 1_000_000L;
                        if (missedDelay.putIfAbsent(d.getDeadlineId(), late) != null) {
                            duplicates.add(d.getDeadlineId());
                        }
                    }
                })) {
            all(pool, n, i -> http.expect(200, "PUT", at.registry() + "/processes/" + parents.get(i) + "/deadlines",
                    Map.of("grain", "day", "cron", cron, "zone", "UTC", "finishBy", "PT0S")));
            System.out.printf("[deadlines] deadlines set; %d SET seen so far; %d s to the due time%n", set.size(),
                    Duration.between(Instant.now(), due).toSeconds());
            if (Instant.now().isAfter(due.minusSeconds(5))) {
                System.out.println("[deadlines] WARNING: the deadlines were set less than 5 s before they fell");
            }
            Instant giveUp = due.plusSeconds(120);
            while (missedDelay.size() < n && Instant.now().isBefore(giveUp)) {
                Bench.sleep(500);
            }
            Bench.sleep(2000); // duplicates would come right behind
        }
        pool.shutdown();

        List<Long> sorted = new ArrayList<>(missedDelay.values());
        Collections.sort(sorted);
        System.out.printf("[deadlines] MISSED after the due time: p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                Bench.pct(sorted, 0.5), Bench.pct(sorted, 0.9), Bench.pct(sorted, 0.99), Bench.pct(sorted, 1.0));
        System.out.printf("RESULT deadlines=%d missed_p50_ms=%.0f missed_p99_ms=%.0f missed_max_ms=%.0f set=%d/%d "
                        + "missed=%d/%d duplicates=%d%n", n, Bench.pct(sorted, 0.5), Bench.pct(sorted, 0.99),
                Bench.pct(sorted, 1.0), set.size(), n, missedDelay.size(), n, duplicates.size());
        if (missedDelay.size() < n || !duplicates.isEmpty()) {
            System.exit(2);
        }
    }

    private interface Task<T> {
        T run(int i) throws Exception;
    }

    /** Runs {@code task} for 0..n-1 on the pool, answers the results in order; the first failure fails the run. */
    private static <T> List<T> all(ExecutorService pool, int n, Task<T> task) throws Exception {
        List<Future<T>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int index = i;
            futures.add(pool.submit(() -> task.run(index)));
        }
        List<T> out = new ArrayList<>(n);
        for (Future<T> f : futures) {
            out.add(f.get());
        }
        return out;
    }
}
