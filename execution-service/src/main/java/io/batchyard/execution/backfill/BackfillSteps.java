package io.batchyard.execution.backfill;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a running backfill does next, free of I/O. Entries run level by level: an entry starts once every entry of a
 * lower level has ended and every entry it consumes from succeeded. At most {@code concurrency} entries are in flight,
 * one per process (the runner runs a process once at a time), and none of a process that has live work in flight:
 * live runs go first. An entry that consumes from a failed or skipped entry is skipped. With {@code stop} the first
 * failure ends the backfill FAILED (resumable) and nothing new starts; with {@code continue} the entries that do not
 * consume from it go on, and the backfill ends FAILED once nothing is left to run. It ends SUCCEEDED when every entry
 * succeeded.
 */
public final class BackfillSteps {

    public static final String STOP = "stop";

    private BackfillSteps() {
    }

    /** The entries to skip and to start now (in entry order), and the state the backfill ends in, if it ends now. */
    public record Next(List<EntryRun> skip, List<EntryRun> start, Optional<BackfillState> end) {
    }

    /**
     * @param entries every entry of the backfill, in entry order
     * @param busy processes with a live run in flight
     */
    public static Next next(BackfillState state, String onFailure, int concurrency, List<EntryRun> entries,
                            Set<Long> busy) {
        if (state != BackfillState.RUNNING) {
            return new Next(List.of(), List.of(), Optional.empty());
        }
        Map<Integer, EntryState> states = new HashMap<>();
        entries.forEach(e -> states.put(e.entryNo(), e.state()));
        boolean failed = entries.stream().anyMatch(e -> e.state() == EntryState.FAILED);
        if (failed && STOP.equals(onFailure)) {
            return new Next(List.of(), List.of(), Optional.of(BackfillState.FAILED));
        }
        // Entries consume only from lower levels, so one pass in entry order carries a skip down the whole chain.
        List<EntryRun> skip = new ArrayList<>();
        for (EntryRun e : entries) {
            if (e.state() == EntryState.PENDING && e.consumes().stream().map(c -> states.get(c.entryNo()))
                    .anyMatch(s -> s == EntryState.FAILED || s == EntryState.SKIPPED)) {
                skip.add(e);
                states.put(e.entryNo(), EntryState.SKIPPED);
            }
        }
        int lowestOpen = entries.stream().filter(e -> !states.get(e.entryNo()).ended()).mapToInt(EntryRun::level)
                .min().orElse(Integer.MAX_VALUE);
        if (lowestOpen == Integer.MAX_VALUE) {
            boolean anyFailed = states.values().stream().anyMatch(s -> s == EntryState.FAILED || s == EntryState.SKIPPED);
            return new Next(skip, List.of(), Optional.of(anyFailed ? BackfillState.FAILED : BackfillState.SUCCEEDED));
        }
        Set<Long> taken = new HashSet<>(busy);
        entries.stream().filter(e -> states.get(e.entryNo()).inFlight()).forEach(e -> taken.add(e.processId()));
        long inFlight = entries.stream().filter(e -> states.get(e.entryNo()).inFlight()).count();
        List<EntryRun> start = new ArrayList<>();
        for (EntryRun e : entries) {
            if (inFlight + start.size() >= concurrency) {
                break;
            }
            boolean ready = states.get(e.entryNo()) == EntryState.PENDING && e.level() == lowestOpen
                    && e.consumes().stream().allMatch(c -> states.get(c.entryNo()) == EntryState.SUCCEEDED);
            if (ready && taken.add(e.processId())) {
                start.add(e);
            }
        }
        return new Next(skip, start, Optional.empty());
    }
}
