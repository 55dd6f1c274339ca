package io.batchyard.registry.process;

import static io.batchyard.registry.RegistryError.CYCLE;
import static io.batchyard.registry.RegistryError.INVALID_ENQUEUER;
import static io.batchyard.registry.RegistryError.INVALID_NEXT;
import static io.batchyard.registry.RegistryError.INVALID_PARENT;
import static io.batchyard.registry.RegistryError.PARENT_TYPE_MISMATCH;
import static io.batchyard.registry.RegistryError.STEP_ONLY_FIELD;
import static io.batchyard.registry.RegistryError.TYPE_NOT_FOR_PARENT;
import static io.batchyard.registry.RegistryError.TYPE_NOT_FOR_STEP;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;

import io.batchyard.api.ApiException;
import io.batchyard.registry.catalog.ProcessType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The structural rules of a process tree, free of I/O so they can be tested on their own. The service loads what they
 * need (types, the parent, the tree, the referenced processes) inside the transaction that will write the change.
 */
public final class ProcessRules {

    /** What the rules may look at besides the draft. */
    public record Context(
            Map<Integer, ProcessType> types,
            Optional<ProcessRow> parent,
            List<ProcessRow> treeSteps,
            Function<Long, Optional<ProcessRow>> lookup,
            Function<Long, Set<Long>> upstreamParentsOf) {
    }

    private ProcessRules() {
    }

    public static void validate(ProcessDraft draft, Context ctx) {
        ProcessType type = Optional.ofNullable(ctx.types().get(draft.processTypeId()))
                .orElseThrow(() -> UNKNOWN_REFERENCE.exception("process type " + draft.processTypeId() + " does not exist"));
        String pid = draft.processId() == null ? "(new)" : String.valueOf(draft.processId());
        if (draft.isParent()) {
            validateParent(draft, type, pid, ctx);
        } else {
            validateStep(draft, type, pid, ctx);
        }
        validateNext(draft, ctx);
    }

    private static void validateParent(ProcessDraft draft, ProcessType type, String pid, Context ctx) {
        if (!type.forParents()) {
            throw TYPE_NOT_FOR_PARENT.exception(type.name() + " process type is not applicable for parent processes but "
                    + pid + " seems to be parent process id");
        }
        if (!draft.enqueuingProcessIds().isEmpty()) {
            throw STEP_ONLY_FIELD.exception("enqueuingProcessIds applies to sub-processes only: a parent process consumes"
                    + " batches through its steps");
        }
        if (draft.batchCutPattern() != null) {
            throw STEP_ONLY_FIELD.exception("batchCutPattern applies to sub-processes only");
        }
        for (ProcessRow step : ctx.treeSteps()) {
            ProcessType stepType = ctx.types().get(step.processTypeId());
            if (!step.deleted() && stepType != null && !stepType.forParents()
                    && stepType.parentTypeId() != draft.processTypeId()) {
                throw PARENT_TYPE_MISMATCH.exception(stepType.name() + " should have a parent with process type="
                        + stepType.parentTypeId() + " but it set parent proces type=" + draft.processTypeId()
                        + " (step " + step.processId() + ")");
            }
        }
    }

    private static void validateStep(ProcessDraft draft, ProcessType type, String pid, Context ctx) {
        ProcessRow parent = ctx.parent()
                .filter(p -> !p.deleted() && p.isParent())
                .orElseThrow(() -> invalidParent(draft.parentProcessId()));
        if (type.forParents()) {
            throw TYPE_NOT_FOR_STEP.exception(type.name() + " process type is not applicable for sub processes. " + pid
                    + " seems to be a subprocess with parent " + parent.processId());
        }
        if (type.parentTypeId() != parent.processTypeId()) {
            throw PARENT_TYPE_MISMATCH.exception(type.name() + " should have a parent with process type="
                    + type.parentTypeId() + " but it set parent proces type=" + parent.processTypeId());
        }
        Set<Long> seen = new HashSet<>();
        for (Long enqueuer : draft.enqueuingProcessIds()) {
            if (enqueuer == null || enqueuer <= 0 || !seen.add(enqueuer)) {
                throw INVALID_ENQUEUER.exception("enqueuingProcessIds must be distinct positive ids, got "
                        + draft.enqueuingProcessIds());
            }
            ProcessRow upstream = ctx.lookup().apply(enqueuer)
                    .orElseThrow(() -> INVALID_ENQUEUER.exception("enqueuing process " + enqueuer + " does not exist"));
            if (upstream.deleted()) {
                throw INVALID_ENQUEUER.exception("enqueuing process " + enqueuer + " is deleted");
            }
            if (!upstream.isParent()) {
                throw INVALID_ENQUEUER.exception("enqueuing process " + enqueuer
                        + " is a sub-process; the enqueuing process must be a parent process");
            }
            if (enqueuer == parent.processId() || ctx.upstreamParentsOf().apply(enqueuer).contains(parent.processId())) {
                throw CYCLE.exception("process " + parent.processId() + " would consume its own output through "
                        + "enqueuing process " + enqueuer);
            }
        }
    }

    /**
     * The refusal of a step whose parent is not a live parent process; also what a caller who may not read the parent's
     * application is told, so it cannot tell such a parent from one that does not exist.
     */
    public static ApiException invalidParent(Long parentId) {
        return INVALID_PARENT.exception("parent process " + parentId
                + " does not exist, is deleted, or is itself a sub-process");
    }

    private static void validateNext(ProcessDraft draft, Context ctx) {
        long treeId = draft.isParent() ? Optional.ofNullable(draft.processId()).orElse(-1L) : draft.parentProcessId();
        Set<Long> seen = new HashSet<>();
        for (Long next : draft.nextProcessIds()) {
            if (next == null || !seen.add(next)) {
                throw INVALID_NEXT.exception("nextProcessIds must be distinct ids, got " + draft.nextProcessIds());
            }
            if (next.equals(draft.processId())) {
                throw CYCLE.exception("process " + next + " cannot be its own next process");
            }
            if (!draft.isParent() && next == treeId) {
                continue; // a last step points back at its parent
            }
            ProcessRow target = ctx.lookup().apply(next)
                    .orElseThrow(() -> INVALID_NEXT.exception("next process " + next + " does not exist"));
            if (target.deleted()) {
                throw INVALID_NEXT.exception("next process " + next + " is deleted");
            }
            if (target.isParent() || target.parentProcessId() != treeId) {
                throw INVALID_NEXT.exception("next process " + next + " is not a sub-process of parent " + treeId
                        + (draft.isParent() ? "" : " (a last step may point back at the parent)"));
            }
        }
        if (!draft.isParent()) {
            findStepCycle(draft, ctx.treeSteps(), treeId).ifPresent(path -> {
                throw CYCLE.exception("next processes form a cycle: " + path.stream().map(String::valueOf)
                        .collect(Collectors.joining(" -> ")));
            });
        }
    }

    /** Depth-first search over the step graph as it would be after the change; returns a cycle if there is one. */
    static Optional<List<Long>> findStepCycle(ProcessDraft draft, List<ProcessRow> treeSteps, long parentId) {
        Map<Long, List<Long>> edges = new LinkedHashMap<>();
        for (ProcessRow step : treeSteps) {
            if (!step.deleted()) {
                edges.put(step.processId(), step.nextProcessIds());
            }
        }
        long self = draft.processId() == null ? Long.MIN_VALUE : draft.processId();
        edges.put(self, draft.nextProcessIds());
        Map<Long, Integer> state = new HashMap<>(); // 1 = on the current path, 2 = done
        for (Long start : edges.keySet()) {
            if (state.containsKey(start)) {
                continue;
            }
            Deque<Long> path = new ArrayDeque<>();
            Optional<List<Long>> cycle = visit(start, edges, parentId, state, path);
            if (cycle.isPresent()) {
                return cycle;
            }
        }
        return Optional.empty();
    }

    private static Optional<List<Long>> visit(long node, Map<Long, List<Long>> edges, long parentId,
                                              Map<Long, Integer> state, Deque<Long> path) {
        state.put(node, 1);
        path.addLast(node);
        for (Long next : edges.getOrDefault(node, List.of())) {
            if (next == parentId) {
                continue;
            }
            Integer s = state.get(next);
            if (s != null && s == 1) {
                List<Long> cycle = new ArrayList<>();
                boolean in = false;
                for (Long p : path) {
                    in |= p.equals(next);
                    if (in) {
                        cycle.add(p);
                    }
                }
                cycle.add(next);
                return Optional.of(cycle);
            }
            if (s == null) {
                Optional<List<Long>> found = visit(next, edges, parentId, state, path);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        path.removeLast();
        state.put(node, 2);
        return Optional.empty();
    }
}
