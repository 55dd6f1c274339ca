package io.batchyard.execution.backfill;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Where a backfill's entries are: counts for the whole and per level (what a progress bar per level shows), and each
 * entry's state, run and output. Empty until the backfill first runs.
 */
public record BackfillProgressView(int entries, int pending, int running, int succeeded, int failed, int skipped,
                                   List<Level> levels, List<Entry> entryRuns) {

    /** One level's counts. */
    public record Level(int level, int entries, int pending, int running, int succeeded, int failed, int skipped) {
    }

    /** One entry's progress. */
    public record Entry(int entryNo, int level, long processId, String bucket, EntryState state,
                        Long instanceExecId, Long targetBatchId, List<Long> sourceBatchIds, String message,
                        OffsetDateTime startedAt, OffsetDateTime endedAt) {
    }

    static BackfillProgressView of(List<EntryRun> runs) {
        TreeMap<Integer, int[]> byLevel = new TreeMap<>();
        int[] total = new int[6];
        List<Entry> entries = new ArrayList<>(runs.size());
        for (EntryRun r : runs) {
            int[] level = byLevel.computeIfAbsent(r.level(), l -> new int[6]);
            int slot = switch (r.state()) {
                case PENDING -> 1;
                case STARTING, RUNNING -> 2;
                case SUCCEEDED -> 3;
                case FAILED -> 4;
                case SKIPPED -> 5;
            };
            level[0]++;
            level[slot]++;
            total[0]++;
            total[slot]++;
            entries.add(new Entry(r.entryNo(), r.level(), r.processId(), r.bucket(), r.state(), r.instanceExecId(),
                    r.targetBatchId(), r.sourceBatchIds(), r.message(), r.startedAt(), r.endedAt()));
        }
        List<Level> levels = new ArrayList<>();
        byLevel.forEach((l, c) -> levels.add(new Level(l, c[0], c[1], c[2], c[3], c[4], c[5])));
        return new BackfillProgressView(total[0], total[1], total[2], total[3], total[4], total[5], levels, entries);
    }
}
