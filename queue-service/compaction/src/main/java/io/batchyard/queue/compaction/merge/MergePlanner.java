package io.batchyard.queue.compaction.merge;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Range planning of one merge run, as pure logic. New small objects are packed in id order onto the open (last) range
 * while the merged size stays within the cap; when nothing fits, a new range starts. Two fixes over the reference: an
 * object larger than the cap forms a range of its own instead of wedging the partition, and "continuing" is only
 * reported when something really is left over (the caller fetches one object beyond the batch).
 */
public final class MergePlanner {

    /** A small object as the planner sees it. */
    public record Candidate(long objectId, long contentLength) {
    }

    private final long sizeCap;
    private final int batchSize;

    public MergePlanner(long sizeCap, int batchSize) {
        if (sizeCap <= 0 || batchSize <= 0) {
            throw new IllegalArgumentException("size cap and batch size must be positive");
        }
        this.sizeCap = sizeCap;
        this.batchSize = batchSize;
    }

    /** How many new objects the caller should fetch: one beyond the batch, to know whether more are waiting. */
    public int fetchSize() {
        return batchSize + 1;
    }

    /**
     * @param open   the partition's last range, if any
     * @param unmerged small objects above the open range's upper bound, ids ascending, at most {@link #fetchSize()}
     * @return the plan, or empty when there is nothing to merge
     */
    public Optional<MergePlan> plan(Optional<MergeRange> open, List<Candidate> unmerged) {
        if (unmerged.isEmpty()) {
            return Optional.empty();
        }
        boolean moreThanBatch = unmerged.size() > batchSize;
        List<Candidate> batch = moreThanBatch ? unmerged.subList(0, batchSize) : unmerged;
        long maxMerged = open.map(MergeRange::upperBound).orElse(0L);

        if (open.isPresent()) {
            List<Candidate> extension = prefixWithin(batch, sizeCap - open.get().contentLength());
            if (!extension.isEmpty()) {
                return Optional.of(plan(open.get().lowerBound(), true, extension, moreThanBatch || extension.size() < batch.size()));
            }
        }
        List<Candidate> fresh = prefixWithin(batch, sizeCap);
        if (fresh.isEmpty()) {
            // The first object alone exceeds the cap: it becomes its own range, so the partition keeps moving.
            fresh = List.of(batch.get(0));
        }
        return Optional.of(plan(maxMerged, false, fresh, moreThanBatch || fresh.size() < batch.size()));
    }

    private static MergePlan plan(long lower, boolean extendsOpen, List<Candidate> objects, boolean continuing) {
        return new MergePlan(lower, objects.get(objects.size() - 1).objectId(), extendsOpen, List.copyOf(objects), continuing);
    }

    /** The longest id-ordered prefix whose total length fits in {@code room} (first-fit prefix: stops at the first misfit). */
    private static List<Candidate> prefixWithin(List<Candidate> objects, long room) {
        List<Candidate> prefix = new ArrayList<>();
        long rest = room;
        for (Candidate c : objects) {
            if (c.contentLength() > rest) {
                break;
            }
            rest -= c.contentLength();
            prefix.add(c);
        }
        return prefix;
    }
}
