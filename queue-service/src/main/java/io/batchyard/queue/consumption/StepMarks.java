package io.batchyard.queue.consumption;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The step marks of a polled batch of lifecycle events, gathered so that they reach the queue in one statement: a
 * step's rows of a run (matched by the run's target batch) get their start time at InitStep, and their end time and
 * Processed at HaltStep or TermStep. Every mark of one transaction stamps the same time (the transaction's), so a
 * start and an end of the same rows gathered here mark them exactly as the two statements one after the other would.
 */
public final class StepMarks {

    /** One step's rows of one run, and what happened to them. */
    public record Mark(long stepId, long targetBatchId, boolean started, boolean ended) {
    }

    private record Key(long stepId, long targetBatchId) {
    }

    private final Map<Key, Mark> marks = new LinkedHashMap<>();

    public void started(long stepId, long targetBatchId) {
        merge(new Mark(stepId, targetBatchId, true, false));
    }

    public void ended(long stepId, long targetBatchId) {
        merge(new Mark(stepId, targetBatchId, false, true));
    }

    private void merge(Mark mark) {
        marks.merge(new Key(mark.stepId(), mark.targetBatchId()), mark, (a, b) ->
                new Mark(a.stepId(), a.targetBatchId(), a.started() || b.started(), a.ended() || b.ended()));
    }

    public boolean isEmpty() {
        return marks.isEmpty();
    }

    /** The marks gathered so far, one per step and run in the order first seen, and none kept. */
    public List<Mark> drain() {
        List<Mark> drained = new ArrayList<>(marks.values());
        marks.clear();
        return drained;
    }
}
