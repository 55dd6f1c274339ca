package io.batchyard.execution.backfill;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * Where a backfill's entries are: counts for the whole and per level (what a progress bar per level shows), and each
 * entry's state, run and output. Empty until the backfill first runs.
 */
public record BackfillProgressView(int entries, int pending, int running, int succeeded, int failed, int skipped,
                                   List<Level> levels, List<Entry> entryRuns) {

    /** One level's counts. */
    public record Level(int level, int entries, int pending, int running, int succeeded, int failed, int skipped) {

        /**
         * The counts of entries in these states (each state's number of entries): the one counting rule of lists,
         * events and metrics. STARTING counts as running (handed to the runner, in flight).
         */
        static Level of(int level, Map<EntryState, Long> byState) {
            ToIntFunction<EntryState> n = state -> byState.getOrDefault(state, 0L).intValue();
            int all = byState.values().stream().mapToInt(Long::intValue).sum();
            return new Level(level, all, n.applyAsInt(EntryState.PENDING),
                    n.applyAsInt(EntryState.STARTING) + n.applyAsInt(EntryState.RUNNING),
                    n.applyAsInt(EntryState.SUCCEEDED), n.applyAsInt(EntryState.FAILED), n.applyAsInt(EntryState.SKIPPED));
        }
    }

    /** One entry's progress. */
    public record Entry(int entryNo, int level, long processId, String bucket, EntryState state,
                        Long instanceExecId, Long targetBatchId, List<Long> sourceBatchIds, String message,
                        OffsetDateTime startedAt, OffsetDateTime endedAt) {
    }

    static BackfillProgressView of(List<EntryRun> runs) {
        TreeMap<Integer, Map<EntryState, Long>> byLevel = runs.stream().collect(Collectors.groupingBy(EntryRun::level,
                TreeMap::new, Collectors.groupingBy(EntryRun::state, Collectors.counting())));
        List<Level> levels = new ArrayList<>();
        byLevel.forEach((level, byState) -> levels.add(Level.of(level, byState)));
        List<Entry> entries = runs.stream().map(r -> new Entry(r.entryNo(), r.level(), r.processId(), r.bucket(),
                r.state(), r.instanceExecId(), r.targetBatchId(), r.sourceBatchIds(), r.message(), r.startedAt(),
                r.endedAt())).toList();
        BackfillSummary.Progress total = BackfillSummary.Progress.of(levels);
        return new BackfillProgressView(total.entries(), total.pending(), total.running(), total.succeeded(),
                total.failed(), total.skipped(), levels, entries);
    }
}
