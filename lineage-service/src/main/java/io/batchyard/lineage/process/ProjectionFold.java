package io.batchyard.lineage.process;

import io.batchyard.lineage.process.ProcessLineage.Enqueue;
import io.batchyard.lineage.process.ProcessLineage.Run;
import io.batchyard.lineage.process.ProcessLineage.StepRun;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rows a polled batch's events write, folded so that each table takes one statement: a multi-row
 * {@code INSERT ... ON CONFLICT DO UPDATE} may not touch a row twice, so a run's (or a step run's) events become one
 * row that, upserted with the same rule, leaves what upserting them one after the other would have left. Where the
 * batch alone cannot tell that, the key's events are written one at a time, in order, as without the fold.
 */
public final class ProjectionFold {

    static final String RUNNING = "RUNNING";

    private ProjectionFold() {
    }

    /** A source batch that a run of {@code parentProcessId} consumed into {@code targetBatchId}. */
    public record Consumption(long parentProcessId, long targetBatchId, long sourceBatchId,
                              OffsetDateTime archivedAt) {
    }

    /** What one event writes: a run, a step run, an offer, or an archive's consumptions; the others null. */
    public record Write(Run run, StepRun step, Enqueue enqueue, List<Consumption> consumptions) {

        public static Write of(Run run) {
            return new Write(run, null, null, null);
        }

        public static Write of(StepRun step) {
            return new Write(null, step, null, null);
        }

        public static Write of(Enqueue enqueue) {
            return new Write(null, null, enqueue, null);
        }

        public static Write of(List<Consumption> consumptions) {
            return new Write(null, null, null, List.copyOf(consumptions));
        }
    }

    /**
     * A batch's writes: per table the rows to write together (each key once, in the order the keys first appear),
     * and the positions of the writes to make one at a time instead, each just before its event's transition.
     */
    public record Plan(List<Run> runs, List<StepRun> steps, List<Enqueue> enqueues, List<Consumption> consumptions,
                       Set<Integer> oneByOne) {
    }

    /**
     * The plan for {@code writes}, the first-time events' writes in the batch's order. With {@code transitionsRead}
     * the transitions read the projection ({@link RunTransitions}): a row that one of them would read before a later
     * event of the batch changes it is written one event at a time.
     */
    public static Plan plan(List<Write> writes, boolean transitionsRead) {
        Map<Long, List<Integer>> runs = new LinkedHashMap<>();
        Map<Long, List<Integer>> steps = new LinkedHashMap<>();
        // Offers and consumptions are inserted unless their row is there: the batch's first one wins, as one by one.
        Map<Long, Enqueue> enqueues = new LinkedHashMap<>();
        Map<List<Long>, Consumption> consumptions = new LinkedHashMap<>();
        for (int i = 0; i < writes.size(); i++) {
            Write w = writes.get(i);
            if (w.run() != null) {
                runs.computeIfAbsent(w.run().instanceExecId(), k -> new ArrayList<>()).add(i);
            } else if (w.step() != null) {
                steps.computeIfAbsent(w.step().subInstanceExecId(), k -> new ArrayList<>()).add(i);
            } else if (w.enqueue() != null) {
                enqueues.putIfAbsent(w.enqueue().queueId(), w.enqueue());
            } else {
                w.consumptions().forEach(c -> consumptions.putIfAbsent(
                        List.of(c.targetBatchId(), c.sourceBatchId()), c));
            }
        }
        Set<Integer> oneByOne = new TreeSet<>();
        List<Run> runRows = new ArrayList<>();
        runs.forEach((run, at) -> {
            Optional<Run> folded = foldRun(at.stream().map(i -> writes.get(i).run()).toList());
            if (folded.isPresent() && !(transitionsRead && runReadBeforeChanged(writes, run))) {
                runRows.add(folded.get());
            } else {
                oneByOne.addAll(at);
            }
        });
        List<StepRun> stepRows = new ArrayList<>();
        steps.forEach((step, at) -> {
            List<StepRun> rows = at.stream().map(i -> writes.get(i).step()).toList();
            Optional<StepRun> folded = foldStep(rows);
            if (folded.isPresent()
                    && !(transitionsRead && stepsReadBefore(writes, rows.get(0).parentInstanceExecId(), at.get(0)))) {
                stepRows.add(folded.get());
            } else {
                oneByOne.addAll(at);
            }
        });
        return new Plan(List.copyOf(runRows), List.copyOf(stepRows), List.copyOf(enqueues.values()),
                List.copyOf(consumptions.values()), Set.copyOf(oneByOne));
    }

    /**
     * One run's rows, in order, as one: its first process; the last target batch and marking given (COALESCE keeps
     * the stored ones otherwise); the last state; the first start given (a stored one wins); the last end, none when
     * RUNNING. Empty when an end is followed by another event of the run (a retry within the batch, an end before its
     * start): one at a time, that end's own row is checked ({@code ended_after_start}) against a start an earlier
     * batch may have stored, and may fail where the folded row would not; only writing it can tell.
     */
    static Optional<Run> foldRun(List<Run> rows) {
        for (Run r : rows.subList(0, rows.size() - 1)) {
            if (!RUNNING.equals(r.state())) {
                return Optional.empty();
            }
        }
        Run first = rows.get(0);
        Run last = rows.get(rows.size() - 1);
        Long batch = null;
        String marking = null;
        OffsetDateTime started = null;
        for (Run r : rows) {
            batch = r.targetBatchId() != null ? r.targetBatchId() : batch;
            marking = r.batchMarking() != null ? r.batchMarking() : marking;
            started = started != null ? started : r.startedAt();
        }
        return Optional.of(new Run(first.instanceExecId(), first.processId(), batch, marking, last.state(), started,
                RUNNING.equals(last.state()) ? null : last.endedAt()));
    }

    /**
     * One step run's rows, in order, as one: the first row's ids and start (a stored row keeps its own); the last
     * end's state and time, else RUNNING without an end (a start leaves a stored end as it is). Empty when that end is
     * earlier than the batch's first event of the step: one at a time, the update raises the end to the start of the
     * row that first event made (GREATEST), which the insert of a folded new row would not.
     */
    static Optional<StepRun> foldStep(List<StepRun> rows) {
        StepRun first = rows.get(0);
        StepRun lastEnd = null;
        for (StepRun r : rows) {
            lastEnd = RUNNING.equals(r.state()) ? lastEnd : r;
        }
        if (lastEnd == null) {
            return Optional.of(first);
        }
        if (lastEnd.endedAt().isBefore(first.startedAt())) {
            return Optional.empty();
        }
        return Optional.of(new StepRun(first.subInstanceExecId(), first.subProcessId(), first.parentProcessId(),
                first.parentInstanceExecId(), lastEnd.state(), first.startedAt(), lastEnd.endedAt()));
    }

    /** What a transition reads of a run's row; null where only the row stored before the batch could tell. */
    private record RunView(Boolean exists, Boolean running, String marking) {
    }

    /**
     * Whether a transition reads the run's row before a later event of the batch changes what it read: the run's own
     * transitions read its batch marking, its steps' transitions also whether it is there and RUNNING. Written at
     * once, the row would already hold the later event when they read it.
     */
    private static boolean runReadBeforeChanged(List<Write> writes, long run) {
        RunView now = new RunView(null, null, null);
        List<RunView> readByRun = new ArrayList<>();
        List<RunView> readBySteps = new ArrayList<>();
        for (Write w : writes) {
            if (w.run() != null && w.run().instanceExecId() == run) {
                now = new RunView(true, RUNNING.equals(w.run().state()),
                        w.run().batchMarking() != null ? w.run().batchMarking() : now.marking());
                readByRun.add(now);
            } else if (w.step() != null && w.step().parentInstanceExecId() == run) {
                readBySteps.add(now);
            }
        }
        RunView written = now;
        return readByRun.stream().anyMatch(v -> !Objects.equals(v.marking(), written.marking()))
                || readBySteps.stream().anyMatch(v -> !v.equals(written));
    }

    /**
     * Whether a transition before {@code first} reads which step runs {@code parentRun} has (the run's own, or one of
     * its steps'): whether the step's row was there then only the stored rows can tell, and written at once it would be.
     */
    private static boolean stepsReadBefore(List<Write> writes, long parentRun, int first) {
        for (Write w : writes.subList(0, first)) {
            if (w.run() != null && w.run().instanceExecId() == parentRun
                    || w.step() != null && w.step().parentInstanceExecId() == parentRun) {
                return true;
            }
        }
        return false;
    }
}
