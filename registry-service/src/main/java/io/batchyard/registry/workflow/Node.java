package io.batchyard.registry.workflow;

import java.util.ArrayList;
import java.util.List;

/** One node of a generated workflow: its name, kind and transitions. */
final class Node {

    enum Kind { START, INIT_JOB, RECOVERY, INIT_STEP, ACTION, HALT_STEP, TERM_STEP, FORK, JOIN, HALT_JOB, TERM_JOB, KILL, END }

    final String name;
    final Kind kind;
    /** The step(s) the node works for: one id, or several for a combined halt-step of a join. */
    final List<Long> processIds;
    Node ok;
    Node error;
    /** Fork paths. */
    final List<Node> paths = new ArrayList<>();
    /** For ACTION nodes: what to run. */
    Action action;
    /** For ACTION nodes: the step it belongs to (its type, name and recovery flag go in the node's comment). */
    StepSpec step;

    Node(String name, Kind kind, List<Long> processIds) {
        this.name = name.length() > 45 ? name.substring(0, 45) : name;
        this.kind = kind;
        this.processIds = List.copyOf(processIds);
    }

    long processId() {
        return processIds.get(0);
    }

    @Override
    public String toString() {
        return name;
    }
}
