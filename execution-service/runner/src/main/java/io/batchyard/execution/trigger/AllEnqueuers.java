package io.batchyard.execution.trigger;

import io.batchyard.readmodel.ProcessDefinition;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rule of the {@code all-enqueuers} policy: the enqueuing processes of a parent are those its live steps name (the
 * registry's enqueuingProcessIds, upstream parents); the parent is due when each of them has delivered a batch since
 * its last triggered run. A parent whose steps name no enqueuing process is never due: nothing could deliver to it.
 */
public final class AllEnqueuers {

    private AllEnqueuers() {
    }

    /** Every enqueuing process of the parent's live steps, in id order. */
    public static Set<Long> required(List<ProcessDefinition> steps) {
        Set<Long> required = new TreeSet<>();
        steps.stream().filter(s -> !s.deleted()).forEach(s -> required.addAll(s.enqueuingProcessIds()));
        return required;
    }

    /** The enqueuing processes that have not delivered yet, in id order (empty: the parent is due). */
    public static Set<Long> missing(Set<Long> required, Collection<Long> delivered) {
        Set<Long> missing = new TreeSet<>(required);
        missing.removeAll(delivered);
        return missing;
    }

    /** Whether a parent with these enqueuing processes and deliveries is due. */
    public static boolean due(Set<Long> required, Collection<Long> delivered) {
        return !required.isEmpty() && missing(required, delivered).isEmpty();
    }
}
