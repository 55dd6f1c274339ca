package io.batchyard.registry.workflow;

import java.util.ArrayList;
import java.util.List;

/**
 * One node of a generated workflow: its name, kind and transitions. The name is an Oozie identifier (letters, digits,
 * {@code _} and {@code -}), so it can be written into any format as it is; the label keeps what it was made from
 * (a step's name as registered) for the formats that show it.
 */
final class Node {

    /** Longest node name; the rest of a step's name is left out of it (the label keeps it whole). */
    static final int MAX_NAME = 45;

    enum Kind { START, INIT_JOB, RECOVERY, INIT_STEP, ACTION, HALT_STEP, TERM_STEP, FORK, JOIN, HALT_JOB, TERM_JOB, KILL, END }

    final String name;
    /** What the node stands for as a person reads it: the text its name was made from, unchanged. */
    final String label;
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

    Node(String label, Kind kind, List<Long> processIds) {
        String name = identifier(label);
        this.name = name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
        this.label = label;
        this.kind = kind;
        this.processIds = List.copyOf(processIds);
    }

    /**
     * {@code text} in Oozie's identifier alphabet ({@code [a-zA-Z_][-_a-zA-Z0-9]*}): every other character, spaces
     * and quotes included, becomes {@code _}. Node names are made of a prefix, a step id and a step's name, so two
     * steps never share one, and no registered name can end an attribute, an EL string or a DOT id early.
     */
    static String identifier(String text) {
        StringBuilder b = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> b.append(cp < 0x80 && (Character.isLetterOrDigit(cp) || cp == '_' || cp == '-')
                ? (char) cp : '_'));
        return b.toString();
    }

    long processId() {
        return processIds.get(0);
    }

    @Override
    public String toString() {
        return name;
    }
}
