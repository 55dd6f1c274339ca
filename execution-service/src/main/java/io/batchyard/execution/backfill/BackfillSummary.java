package io.batchyard.execution.backfill;

import io.batchyard.execution.backfill.BackfillProgressView.Level;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * A backfill as a list shows it: the backfill (state, who started it, when), the processes it was asked to re-run
 * from, and how far its entries are, in all and per level (what a progress bar per level shows). The plan and each
 * entry's run are left to {@code GET /backfills/{id}}. A backfill that has not run yet has no entries of its own:
 * its plan's entries count as pending, so a queued backfill already shows its levels.
 */
public record BackfillSummary(Backfill backfill, List<Long> rootProcessIds, Progress progress) {

    /** The counts of {@link BackfillProgressView}, without each entry's run. */
    public record Progress(int entries, int pending, int running, int succeeded, int failed, int skipped,
                           List<Level> levels) {

        static Progress of(List<Level> levels) {
            return new Progress(sum(levels, Level::entries), sum(levels, Level::pending), sum(levels, Level::running),
                    sum(levels, Level::succeeded), sum(levels, Level::failed), sum(levels, Level::skipped), levels);
        }

        private static int sum(List<Level> levels, ToIntFunction<Level> count) {
            return levels.stream().mapToInt(count).sum();
        }
    }
}
