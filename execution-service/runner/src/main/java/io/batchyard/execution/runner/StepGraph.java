package io.batchyard.execution.runner;

import io.batchyard.readmodel.ProcessDefinition;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The steps of a stand-alone parent as a DAG from their next-process lists: a step with several successors forks,
 * a step with several predecessors joins. A step becomes ready once every predecessor is done.
 */
public final class StepGraph {

    private final long parentId;
    private final Map<Long, ProcessDefinition> steps = new LinkedHashMap<>();
    private final Map<Long, Set<Long>> predecessors = new LinkedHashMap<>();

    public StepGraph(ProcessDefinition parent, Collection<ProcessDefinition> liveSteps) {
        this.parentId = parent.processId();
        liveSteps.stream().filter(s -> !s.deleted()).forEach(s -> {
            steps.put(s.processId(), s);
            predecessors.put(s.processId(), new TreeSet<>());
        });
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("parent " + parentId + " has no steps to run");
        }
        for (long first : parent.nextProcessIds()) {
            requireStep(first, parentId);
        }
        for (ProcessDefinition s : steps.values()) {
            for (long next : s.nextProcessIds()) {
                if (next != parentId) {
                    requireStep(next, s.processId());
                    predecessors.get(next).add(s.processId());
                }
            }
        }
        requireAcyclic();
    }

    public long parentId() {
        return parentId;
    }

    public Collection<ProcessDefinition> steps() {
        return steps.values();
    }

    public ProcessDefinition step(long id) {
        return steps.get(id);
    }

    public Set<Long> predecessors(long stepId) {
        return predecessors.get(stepId);
    }

    /** Steps not yet started whose predecessors are all done, in id order (deterministic launch order). */
    public List<Long> ready(Set<Long> done, Set<Long> started) {
        return steps.keySet().stream().sorted()
                .filter(id -> !started.contains(id) && !done.contains(id) && done.containsAll(predecessors.get(id)))
                .toList();
    }

    /** Every step some path leads from to {@code stepId}. */
    public Set<Long> ancestors(long stepId) {
        Set<Long> seen = new HashSet<>();
        Deque<Long> todo = new ArrayDeque<>(predecessors.getOrDefault(stepId, Set.of()));
        while (!todo.isEmpty()) {
            long id = todo.pop();
            if (seen.add(id)) {
                todo.addAll(predecessors.get(id));
            }
        }
        return seen;
    }

    private void requireStep(long id, long from) {
        if (!steps.containsKey(id)) {
            throw new IllegalArgumentException("process " + from + " leads to " + id + ", which is not a live step of parent "
                    + parentId);
        }
    }

    private void requireAcyclic() {
        Set<Long> done = new HashSet<>();
        while (done.size() < steps.size()) {
            List<Long> next = ready(done, Set.of());
            if (next.isEmpty()) {
                throw new IllegalArgumentException("the steps of parent " + parentId + " form a cycle");
            }
            done.addAll(next);
        }
    }
}
