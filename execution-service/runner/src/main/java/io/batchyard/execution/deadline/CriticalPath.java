package io.batchyard.execution.deadline;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The estimate of when a bucket will be done: the parent and the upstream parents it waits for (through its steps'
 * enqueuing processes), each with its typical duration (the median of its recent successful runs). Upstream parents
 * at the same distance run side by side, so the longest of them counts; distances add up. A process that already
 * finished the bucket counts nothing, one that is running counts what is left of its typical duration.
 */
public final class CriticalPath {

    /** One process of the chain: how far upstream, whether it finished the bucket, its typical and elapsed time. */
    public record Link(long processId, int depth, boolean finished, Duration typical, Duration elapsed) {

        Duration remaining() {
            Duration left = elapsed == null ? typical : typical.minus(elapsed);
            return left.isNegative() ? Duration.ZERO : left;
        }
    }

    /** The estimate and the process it waits for first: the most upstream unfinished one (the longest at ties). */
    public record Estimate(Instant eta, long blocker) {
    }

    private CriticalPath() {
    }

    /** Empty when nothing is left to wait for, or when a process left to wait for has no history to go by. */
    public static Optional<Estimate> estimate(List<Link> chain, Instant now) {
        List<Link> unfinished = chain.stream().filter(l -> !l.finished()).toList();
        if (unfinished.isEmpty() || unfinished.stream().anyMatch(l -> l.typical() == null)) {
            return Optional.empty();
        }
        Map<Integer, Duration> longestAtDepth = new TreeMap<>();
        for (Link l : unfinished) {
            longestAtDepth.merge(l.depth(), l.remaining(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
        }
        Duration total = longestAtDepth.values().stream().reduce(Duration.ZERO, Duration::plus);
        Link blocker = unfinished.stream().max(Comparator.comparingInt(Link::depth)
                .thenComparing(Link::remaining)).orElseThrow();
        return Optional.of(new Estimate(now.plus(total), blocker.processId()));
    }
}
