package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.merge.MergeRange;
import jakarta.inject.Inject;
import org.hibernate.exception.ConstraintViolationException;
import org.junit.jupiter.api.Test;

/** PostgreSQL's merge_range constraints, not the worker, keep a partition's ranges a gapless chain. */
@QueueTest
class RangeChainTest {

    @Inject
    Compaction compaction;

    private long partition() {
        CompactionFixture f = new CompactionFixture(compaction, 3600);
        return f.arrive(1, 1, 0);
    }

    private void upsert(long partition, long lower, long upper) {
        await(() -> compaction.ranges.record(partition, new MergeRange(lower, upper, 10, 1)));
    }

    @Test
    void rangesChainFromTheSentinelAndOnlyTheLastOneGrows() {
        long p = partition();
        assertThatThrownBy(() -> upsert(p, 5, 9)).as("the first range must start at 0")
                .isInstanceOf(ConstraintViolationException.class);
        upsert(p, 0, 4);
        upsert(p, 4, 9);
        assertThatThrownBy(() -> upsert(p, 10, 12)).as("a gap").isInstanceOf(ConstraintViolationException.class);
        assertThatThrownBy(() -> upsert(p, 0, 6)).as("widening a range that another follows")
                .isInstanceOf(ConstraintViolationException.class);
        assertThatThrownBy(() -> upsert(p, 2, 9)).as("an overlap ending on an existing upper bound")
                .isInstanceOf(ConstraintViolationException.class);
        upsert(p, 4, 15); // the last range grows
        upsert(p, 4, 11); // a stale, narrower write changes nothing
        java.util.List<MergeRange> ranges = await(() -> compaction.ranges.ranges(p));
        assertThat(ranges).extracting(MergeRange::lowerBound, MergeRange::upperBound)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 4L), org.assertj.core.groups.Tuple.tuple(4L, 15L));
    }
}
