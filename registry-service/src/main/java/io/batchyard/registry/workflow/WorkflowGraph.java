package io.batchyard.registry.workflow;

import static io.batchyard.registry.workflow.Node.Kind.ACTION;
import static io.batchyard.registry.workflow.Node.Kind.FORK;
import static io.batchyard.registry.workflow.Node.Kind.HALT_STEP;
import static io.batchyard.registry.workflow.Node.Kind.INIT_STEP;
import static io.batchyard.registry.workflow.Node.Kind.JOIN;
import static io.batchyard.registry.workflow.Node.Kind.TERM_STEP;

import io.batchyard.registry.RegistryError;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The workflow of a parent process, built from its steps' next-process lists: each step becomes
 * init-step -> action -> halt-step with term-step/term-job failure paths; a step with several successors forks; a step
 * with several predecessors is preceded by a join and a combined halt-step; the last steps lead to halt-job. Unlike the
 * reference, unreachable nodes are never emitted and the recovery decision has one deterministic case per id.
 */
public final class WorkflowGraph {

    final StepSpec parent;
    final Node start = new Node("start", Node.Kind.START, List.of());
    final Node initJob;
    final Node recovery = new Node("recovery-test", Node.Kind.RECOVERY, List.of());
    final Node haltJob;
    final Node termJob;
    final Node kill = new Node("kill", Node.Kind.KILL, List.of());
    final Node end = new Node("halt", Node.Kind.END, List.of());
    /** Recovery cases: last-recoverable-sp-id value -> node to resume at, in emission order. */
    final Map<Long, Node> recoveryCases = new LinkedHashMap<>();
    /** Every node in emission order. */
    final List<Node> nodes = new ArrayList<>();

    private final Map<Long, StepSpec> steps = new LinkedHashMap<>();
    private final Map<Long, List<Long>> predecessors = new LinkedHashMap<>();
    private final Map<Long, Node> initSteps = new LinkedHashMap<>();
    private final Map<Long, List<Node>> actions = new LinkedHashMap<>();
    private final Map<Long, Node> haltSteps = new LinkedHashMap<>();
    private final Map<Long, Node> termSteps = new LinkedHashMap<>();
    private final Map<Long, Node> entries = new LinkedHashMap<>();
    private final Map<Long, Node> forks = new LinkedHashMap<>();
    private final Map<Long, Node[]> joins = new LinkedHashMap<>(); // child -> {join, combined halt-step}

    private WorkflowGraph(StepSpec parent, List<StepSpec> steps, ActionFactory actionFactory) {
        this.parent = parent;
        long pid = parent.processId();
        initJob = new Node("init-job", Node.Kind.INIT_JOB, List.of(pid));
        haltJob = new Node("halt-job", Node.Kind.HALT_JOB, List.of(pid));
        termJob = new Node("term-job", Node.Kind.TERM_JOB, List.of(pid));
        steps.forEach(s -> this.steps.put(s.processId(), s));
        for (StepSpec s : steps) {
            initSteps.put(s.processId(), node("init-step-" + s.processId(), INIT_STEP, s.processId()));
            actions.put(s.processId(), actionFactory.actionsFor(s));
            haltSteps.put(s.processId(), node("halt-step-" + s.processId(), HALT_STEP, s.processId()));
            termSteps.put(s.processId(), node("term-step-" + s.processId(), TERM_STEP, s.processId()));
        }
        computePredecessors();
        wire();
        order();
    }

    /** Builds the graph; refuses shapes Oozie cannot express, with a clear reason. */
    public static WorkflowGraph of(StepSpec parent, List<StepSpec> steps, ActionFactory actionFactory) {
        return new WorkflowGraph(parent, steps, actionFactory);
    }

    private static Node node(String name, Node.Kind kind, long id) {
        return new Node(name, kind, List.of(id));
    }

    private void computePredecessors() {
        long pid = parent.processId();
        predecessors.put(pid, new ArrayList<>());
        steps.keySet().forEach(id -> predecessors.put(id, new ArrayList<>()));
        for (Long first : parent.nextProcessIds()) {
            requireStep(first, pid);
            predecessors.get(first).add(pid);
        }
        for (StepSpec s : steps.values()) {
            if (s.nextProcessIds().isEmpty()) {
                throw unsupported("step " + s.processId() + " has no next process; a last step names the parent " + pid);
            }
            for (Long next : s.nextProcessIds()) {
                if (next != pid) {
                    requireStep(next, s.processId());
                }
                predecessors.get(next).add(s.processId());
            }
        }
        if (parent.nextProcessIds().isEmpty() && !steps.isEmpty()) {
            throw unsupported("parent " + pid + " names no first step (nextProcessIds)");
        }
    }

    private void wire() {
        long pid = parent.processId();
        start.ok = initJob;
        initJob.ok = recovery;
        initJob.error = kill;
        haltJob.ok = end;
        haltJob.error = termJob;
        termJob.ok = kill;
        termJob.error = kill;
        for (StepSpec s : steps.values()) {
            long id = s.processId();
            List<Node> chain = actions.get(id);
            initSteps.get(id).ok = chain.get(0);
            initSteps.get(id).error = termJob;
            for (int i = 0; i < chain.size(); i++) {
                chain.get(i).ok = i + 1 < chain.size() ? chain.get(i + 1) : haltSteps.get(id);
                chain.get(i).error = termSteps.get(id);
            }
            haltSteps.get(id).error = termSteps.get(id);
            termSteps.get(id).ok = termJob;
            termSteps.get(id).error = termJob;
        }
        // Entry nodes: halt-job for the parent, init-step for a step with one predecessor, a join otherwise.
        entries.put(pid, haltJob);
        steps.keySet().forEach(id -> entries.put(id, initSteps.get(id)));
        for (Map.Entry<Long, List<Long>> e : predecessors.entrySet()) {
            if (e.getValue().size() > 1) {
                joinBefore(e.getKey(), e.getValue());
            }
        }
        recovery.ok = exitOf(pid, parent.nextProcessIds(), null);
        for (StepSpec s : steps.values()) {
            if (!joinedInto(s.processId())) {
                haltSteps.get(s.processId()).ok = exitOf(s.processId(), s.nextProcessIds(), haltSteps.get(s.processId()));
            }
        }
        // Cases in step order, whatever order the wiring found them in.
        Map<Long, Node> ordered = new LinkedHashMap<>();
        steps.keySet().stream().filter(recoveryCases::containsKey).forEach(id -> ordered.put(id, recoveryCases.get(id)));
        recoveryCases.clear();
        recoveryCases.putAll(ordered);
    }

    /** A join before {@code child}: every predecessor's last action goes to it, its combined halt-step halts them all. */
    private void joinBefore(long child, List<Long> preds) {
        for (Long p : preds) {
            if (p == parent.processId()) {
                throw unsupported("step " + child + " is both a first step of parent " + p + " and the successor of another"
                        + " step; a join cannot wait for the parent");
            }
            if (steps.get(p).nextProcessIds().size() > 1) {
                throw unsupported("step " + p + " both forks and feeds the join before " + child
                        + "; give the join its own step or drop the extra successor");
            }
        }
        String ids = preds.stream().map(String::valueOf).collect(Collectors.joining("_"));
        Node join = new Node("join-" + child, JOIN, List.of(child));
        Node combinedHalt = new Node("halt-step-" + ids, HALT_STEP, preds);
        join.ok = combinedHalt;
        combinedHalt.ok = entries.get(child);
        Node firstTerm = termSteps.get(preds.get(0));
        combinedHalt.error = firstTerm;
        for (int i = 0; i < preds.size(); i++) {
            long p = preds.get(i);
            List<Node> chain = actions.get(p);
            chain.get(chain.size() - 1).ok = join;
            chain.forEach(a -> a.error = firstTerm);
            // A joined parent's term-step that succeeds goes on to close the next joined parent; one that fails
            // leaves the others open and ends the job, since term-job closes every step the run left running.
            Node term = termSteps.get(p);
            term.ok = i + 1 < preds.size() ? termSteps.get(preds.get(i + 1)) : termJob;
            term.error = termJob;
        }
        joins.put(child, new Node[] {join, combinedHalt});
        entries.put(child, join);
        if (child != parent.processId()) {
            recoveryCases.putIfAbsent(child, initSteps.get(child));
        }
    }

    private boolean joinedInto(long step) {
        List<Long> next = steps.get(step).nextProcessIds();
        return next.size() == 1 && predecessors.get(next.get(0)).size() > 1;
    }

    /** Where control goes after {@code from} completes: the single successor's entry, or a fork over all of them. */
    private Node exitOf(long from, List<Long> next, Node restartNode) {
        if (next.isEmpty()) {
            return haltJob; // a parent without steps
        }
        Node target;
        if (next.size() == 1) {
            target = entries.get(next.get(0));
        } else {
            Node fork = new Node("fork-" + from, FORK, List.of(from));
            for (Long child : next) {
                if (child == parent.processId()) {
                    throw unsupported("step " + from + " forks to the parent " + child + "; the last step of a branch"
                            + " should name only the parent");
                }
                fork.paths.add(entries.get(child));
            }
            forks.put(from, fork);
            target = fork;
        }
        // A halt-step followed by an init-step or fork is a restart point: recovery-test can resume there.
        if (restartNode != null && target.kind == INIT_STEP) {
            recoveryCases.putIfAbsent(target.processId(), target);
        }
        if (restartNode != null && target.kind == FORK) {
            // The same id may also name "resume at this step" (from its predecessor): keep the init-step case, so a
            // step that failed is never skipped; at worst a completed recoverable step before a fork runs again.
            recoveryCases.putIfAbsent(from, target);
        }
        return target;
    }

    /** Emission order: start, init-job, recovery-test, the steps breadth-first, then halt-job, term-job, kill, end. */
    private void order() {
        Set<Node> seen = new LinkedHashSet<>();
        seen.add(start);
        seen.add(initJob);
        seen.add(recovery);
        Deque<Node> queue = new ArrayDeque<>();
        queue.add(recovery.ok);
        while (!queue.isEmpty()) {
            Node n = queue.poll();
            if (n == null || n.kind == Node.Kind.HALT_JOB || n.kind == Node.Kind.TERM_JOB || n.kind == Node.Kind.KILL
                    || n.kind == Node.Kind.END || !seen.add(n)) {
                continue;
            }
            queue.addAll(n.paths);
            if (n.ok != null) {
                queue.add(n.ok);
            }
            // A step's nodes come out as init-step, actions, halt-step, term-step: the inner actions of a
            // multi-node step share the last one's term-step, which it queues after its halt-step.
            boolean innerAction = n.kind == ACTION && n.ok != null && n.ok.kind == ACTION;
            if (n.error != null && !innerAction) {
                queue.add(n.error);
            }
        }
        for (Node[] join : joins.values()) {
            if (join[0].processId() == parent.processId()) {
                seen.add(join[0]);
                seen.add(join[1]);
            }
        }
        seen.add(haltJob);
        seen.add(termJob);
        seen.add(kill);
        seen.add(end);
        nodes.addAll(seen);
        Set<Long> reachedSteps = nodes.stream().filter(n -> n.kind == INIT_STEP).map(Node::processId)
                .collect(Collectors.toSet());
        for (Long id : steps.keySet()) {
            if (!reachedSteps.contains(id)) {
                throw unsupported("step " + id + " cannot be reached from parent " + parent.processId()
                        + " through nextProcessIds");
            }
        }
    }

    /** The steps in emission order (breadth-first from the parent's first steps). */
    List<StepSpec> stepsInOrder() {
        return nodes.stream().filter(n -> n.kind == INIT_STEP).map(n -> steps.get(n.processId())).toList();
    }

    /** The action nodes of one step, in the order they run. */
    List<Node> actionsOf(long step) {
        return actions.get(step);
    }

    /**
     * For each recovery case (a {@code last-recoverable-sp-id} value, in case order) the steps a recovery run with that
     * value runs: those reachable from the node recovery-test resumes at. Any other value runs every step.
     */
    Map<Long, Set<Long>> stepsRunOnRecovery() {
        Map<Long, Set<Long>> out = new LinkedHashMap<>();
        recoveryCases.forEach((id, target) -> {
            Set<Long> run = new LinkedHashSet<>();
            Set<Node> seen = new LinkedHashSet<>();
            Deque<Node> queue = new ArrayDeque<>(List.of(target));
            while (!queue.isEmpty()) {
                Node n = queue.poll();
                if (n == null || n == haltJob || !seen.add(n)) {
                    continue;
                }
                if (n.kind == INIT_STEP) {
                    run.add(n.processId());
                }
                queue.addAll(n.paths);
                if (n.ok != null) {
                    queue.add(n.ok);
                }
            }
            out.put(id, run);
        });
        return out;
    }

    /** The first node after recovery-test when there is nothing to resume. */
    Node firstNode() {
        return recovery.ok;
    }

    private void requireStep(long id, long referrer) {
        if (!steps.containsKey(id)) {
            throw unsupported("process " + referrer + " names " + id + " as next process, which is not a live step of "
                    + "parent " + parent.processId());
        }
    }

    private static RuntimeException unsupported(String detail) {
        return RegistryError.WORKFLOW_SHAPE.exception(detail);
    }

    static boolean isAction(Node n) {
        return n.kind == ACTION;
    }
}
