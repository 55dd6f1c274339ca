package io.batchyard.execution.trigger;

import io.batchyard.execution.bucket.BucketGrain;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The rules of bucket-aware triggers, as pure functions: which bucket of the consumer an input belongs to, which
 * batches a bucket expects from each input process, and whether a bucket is due under the parent's policy.
 *
 * <p>A grain of {@code null} is the consumer's {@code upstream} grain: its bucket is the input's own (the marking the
 * producer's run wrote, or {@code batch-<source batch>} without one), and one batch completes an input process.
 * Otherwise an input maps to the consumer bucket whose span holds the start of the input's own span, and a bucket
 * expects, per input process, every producer key whose span starts inside it: an hourly UTC producer feeds a daily
 * Europe/Berlin bucket 24 hours, 23 on the day the clocks go forward and 25 on the day they go back.
 */
public final class TriggerRules {

    /** A marking usable as a bucket key as it is: what the runner writes (a key, a name), no list, no spaces. */
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");

    private TriggerRules() {
    }

    /** How a producer's markings are read: its declared grain and zone, else inferred from a key and the runner's. */
    public record Producer(Optional<BucketGrain> grain, ZoneId zone) {

        /** The grain of {@code key}: the declared one, else the key's shape (ten digits an hour, eight a day). */
        Optional<BucketGrain> grainOf(String key) {
            return grain.isPresent() ? grain : BucketGrain.inferred(key);
        }
    }

    /** Where one input process stands for one bucket: the keys expected (empty: any one batch) and the keys arrived. */
    public record Progress(List<String> expected, Set<String> arrived, int batches) {

        public boolean complete() {
            return expected.isEmpty() ? batches > 0 : arrived.containsAll(expected);
        }

        /** The expected keys not arrived, oldest first. */
        public List<String> missing() {
            return expected.stream().filter(k -> !arrived.contains(k)).toList();
        }
    }

    /**
     * What a policy says of a bucket: due or not, why, and what is missing per input process (for a bucket that fires
     * on its timeout: what the run goes without).
     */
    public record Verdict(boolean due, String reason, Map<Long, List<String>> missing) {
    }

    /** The input's own bucket key: its marking when that reads as a key, else {@code batch-<source batch>}. */
    public static String ownKey(String marking, long sourceBatchId) {
        String m = marking == null ? "" : marking.strip();
        return KEY.matcher(m).matches() && !m.equals("null") ? m : "batch-" + sourceBatchId;
    }

    /**
     * The consumer bucket of an input: with the upstream grain the input's own key; otherwise the consumer bucket (of
     * {@code grain} in {@code zone}) that holds the start of the input's own span, or, when its marking has no
     * readable bucket, the consumer bucket of its arrival.
     */
    public static String consumerBucket(String marking, long sourceBatchId, Producer producer, BucketGrain grain,
                                        ZoneId zone, Instant arrival) {
        String own = ownKey(marking, sourceBatchId);
        if (grain == null) {
            return own;
        }
        return producer.grainOf(own).flatMap(g -> g.span(own, producer.zone()))
                .map(span -> grain.key(span.start(), zone))
                .orElseGet(() -> grain.key(arrival, zone));
    }

    /**
     * The producer keys a consumer bucket expects from one input process: those of the producer's grain whose span
     * starts inside the bucket's span. The producer's grain is its declared one, else the one its arrived keys show,
     * else (nothing arrived yet, nothing declared) the consumer's own. Empty (one batch of any key completes it) for
     * the upstream grain, or a bucket key that is not of the consumer's grain.
     */
    public static List<String> expected(String bucket, BucketGrain grain, ZoneId zone, Producer producer,
                                        Collection<String> arrivedKeys) {
        if (grain == null) {
            return List.of();
        }
        BucketGrain producerGrain = producer.grain()
                .or(() -> arrivedKeys.stream().map(BucketGrain::inferred).flatMap(Optional::stream).findFirst())
                .orElse(grain);
        return grain.span(bucket, zone).map(span -> producerGrain.keysStartingIn(span, producer.zone()))
                .orElse(List.of());
    }

    /**
     * Whether a bucket is due under {@code policy}, given the progress of each input process (every process of
     * {@code inputs} has an entry, an empty one when nothing arrived). {@code n} is n-of's; {@code timeoutAt} is
     * all-with-timeout's deadline, counted from the bucket's first input. {@code each} is due with any batch.
     */
    public static Verdict evaluate(TriggerPolicy policy, Integer n, Collection<Long> inputs,
                                   Map<Long, Progress> progress, Instant timeoutAt, Instant now) {
        Map<Long, List<String>> missing = new TreeMap<>();
        List<Long> complete = new ArrayList<>();
        int batches = 0;
        for (long input : new TreeSet<>(inputs)) {
            Progress p = progress.getOrDefault(input, new Progress(List.of(), Set.of(), 0));
            batches += p.batches();
            if (p.complete()) {
                complete.add(input);
            } else {
                missing.put(input, p.expected().isEmpty() ? List.of() : p.missing());
            }
        }
        int k = new TreeSet<>(inputs).size();
        return switch (policy) {
            case NONE -> new Verdict(false, "policy none", missing);
            case EACH -> new Verdict(batches > 0 || progress.values().stream().anyMatch(p -> p.batches() > 0),
                    "each: a batch arrived", Map.of());
            case ALL -> new Verdict(k > 0 && complete.size() == k, "all: every input " + complete + " complete",
                    missing);
            case ANY_OF -> new Verdict(!complete.isEmpty(), "any-of: input " + complete + " complete", missing);
            case N_OF -> {
                int needed = n == null ? k : n;
                yield new Verdict(k > 0 && complete.size() >= needed, "n-of: " + complete.size() + " of " + k
                        + " inputs complete " + complete + ", " + needed + " needed", missing);
            }
            case ALL_WITH_TIMEOUT -> {
                if (k > 0 && complete.size() == k) {
                    yield new Verdict(true, "all-with-timeout: every input " + complete + " complete", missing);
                }
                boolean timedOut = timeoutAt != null && !now.isBefore(timeoutAt);
                yield new Verdict(timedOut, timedOut ? "all-with-timeout: the timeout passed at " + timeoutAt
                        + " with " + complete.size() + " of " + k + " inputs complete; running with what arrived"
                        : "all-with-timeout: waiting until " + timeoutAt, missing);
            }
        };
    }

    /** When an all-with-timeout bucket runs with what it has: the timeout after its first input. */
    public static Instant timeoutAt(Instant firstInput, Duration timeout) {
        return timeout == null ? null : firstInput.plus(timeout);
    }
}
