package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.batchyard.queue.compaction.MergeHooks.crashAfterFirstProgress;
import static io.batchyard.queue.compaction.MergeHooks.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.queue.compaction.merge.MergeHook;
import io.batchyard.queue.compaction.merge.MergeJobClaim;
import io.batchyard.queue.compaction.merge.MergePlan;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.merge.MergeWorker;
import io.batchyard.queue.compaction.merge.MergeWorker.Outcome;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.store.ObjectKeys;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@QueueTest
class MergeWorkerTest extends CompactionTestSupport {

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aBacklogLargerThanTheBatchIsCarriedOverAndDrainsWithoutWaiting(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(7, 10, 0);
        try (MergeWorker w = compaction.worker("carry", compaction.settings.withBatchSize(3), MergeHook.NONE)) {
            assertThat(drain(w)).containsExactly(Outcome.CONTINUING, Outcome.CONTINUING, Outcome.FINISHED);
        }
        List<MergeRange> ranges = f.ranges(partition);
        assertThat(ranges).as("all within the size cap: the open range grew three times").hasSize(1);
        assertThat(ranges.get(0).lowerBound()).isZero();
        assertThat(f.partition(partition).desiredManifestVersion()).isEqualTo(ranges.get(0).upperBound());
        f.assertMergedExactlyOnce(partition);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theSizeCapStartsNewRangesThatChainAndAnOversizedObjectStandsAlone(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(3, 10, 100);            // ~1.2 KB each
        f.arrive(1, 10, 2_000);                            // ~20 KB: larger than the cap on its own
        f.arrive(3, 10, 100);
        try (MergeWorker w = compaction.worker("cap", compaction.settings.withSizeCap(4_000), MergeHook.NONE)) {
            List<Outcome> outcomes = drain(w);
            assertThat(outcomes).last().isEqualTo(Outcome.FINISHED);
            assertThat(outcomes).contains(Outcome.CONTINUING);
        }
        List<MergeRange> ranges = f.ranges(partition);
        assertThat(ranges).as("about 1.8 KB per object and a 4 KB cap: two per range, the big one alone").hasSize(5);
        assertThat(ranges.get(0).lowerBound()).isZero();
        for (int i = 1; i < ranges.size(); i++) {
            assertThat(ranges.get(i).lowerBound()).as("ranges chain without gaps").isEqualTo(ranges.get(i - 1).upperBound());
        }
        MergeRange oversized = ranges.get(2);
        assertThat(oversized.upperBound() - oversized.lowerBound()).as("the oversized object forms its own range")
                .isEqualTo(1);
        assertThat(oversized.contentLength()).isGreaterThan(4_000);
        f.assertMergedExactlyOnce(partition);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aWorkerKilledMidMergeIsRedoneAfterItsLeaseExpiresWithEveryRecordExactlyOnce(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(4, 400, 0);
        MergeSettings fast = compaction.settings.withLease(Duration.ofMillis(100), Duration.ofSeconds(1));
        try (MergeWorker first = compaction.worker("first", fast, MergeHook.NONE)) {
            assertThat(first.runOnce()).isEqualTo(Outcome.FINISHED); // an open range (0, first upper] already exists
        }
        long firstUpper = f.ranges(partition).get(0).upperBound();
        f.arrive(5, 400, 0);
        long lastId = f.register(f.write(400, 0)).object().objectId();
        try (MergeWorker killed = compaction.worker("killed", fast, crashAfterFirstProgress());
             MergeWorker rescuer = compaction.worker("rescuer", fast, MergeHook.NONE)) {
            assertThatThrownBy(killed::runOnce).isInstanceOf(MergeHooks.Killed.class);
            Partition p = f.partition(partition);
            assertThat(f.ranges(partition)).as("nothing committed by the killed worker").singleElement()
                    .extracting(MergeRange::upperBound).isEqualTo(firstUpper);
            assertThat(f.store.exists(ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), 0, lastId)))
                    .as("its partial output never became visible").isFalse();
            sleep(1_300);
            assertThat(drain(rescuer)).contains(Outcome.FINISHED);
        }
        assertThat(f.ranges(partition)).singleElement().extracting(MergeRange::upperBound).isEqualTo(lastId);
        assertThat(f.recordsWritten(partition)).isEqualTo(4_000);
        f.assertMergedExactlyOnce(partition);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void twoWorkersOneKilledMidMergeStillMergeEveryRecordOfEveryObjectExactlyOnce(TestStore store) throws Exception {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        List<Long> partitions = new java.util.ArrayList<>();
        for (int d = 0; d < 6; d++) {
            for (int i = 0; i < 6; i++) {
                partitions.add(f.register(f.write(250, 0), f.date.plusDays(d)).object().partitionId());
            }
        }
        MergeSettings fast = compaction.settings.withBatchSize(4).withLease(Duration.ofMillis(100), Duration.ofSeconds(1));
        java.util.concurrent.atomic.AtomicInteger progress = new java.util.concurrent.atomic.AtomicInteger();
        MergeHook killOnFirstProgress = MergeHooks.onProgress((claim, plan, written) -> {
            if (progress.incrementAndGet() == 1) {
                throw new MergeHooks.Killed();
            }
        });
        java.util.concurrent.atomic.AtomicInteger redone = new java.util.concurrent.atomic.AtomicInteger();
        MergeHook countRedos = MergeHooks.onWritten((claim, plan) -> {
            if (claim.attempt() > 1) {
                redone.incrementAndGet();
            }
        });
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try (MergeWorker victim = compaction.worker("victim", fast, killOnFirstProgress);
             MergeWorker survivor = compaction.worker("survivor", fast, countRedos)) {
            var victimRun = pool.submit(() -> drain(victim));
            var survivorRun = pool.submit(() -> drain(survivor));
            assertThatThrownBy(victimRun::get).hasCauseInstanceOf(MergeHooks.Killed.class);
            survivorRun.get();
            sleep(1_300); // the victim's lease expires
            drain(survivor);
        } finally {
            pool.shutdownNow();
        }
        assertThat(redone.get()).as("the killed worker's job was really taken over and redone").isPositive();
        for (long p : partitions.stream().distinct().toList()) {
            f.assertMergedExactlyOnce(p);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aWorkerKilledAfterWritingButBeforeCommittingIsRedoneIdempotently(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(5, 50, 0);
        MergeSettings fast = compaction.settings.withLease(Duration.ofMillis(100), Duration.ofSeconds(1));
        MergeHook dieBeforeCommit = MergeHooks.onWritten((claim, plan) -> {
            throw new MergeHooks.Killed();
        });
        try (MergeWorker killed = compaction.worker("killed-late", fast, dieBeforeCommit);
             MergeWorker rescuer = compaction.worker("rescuer-late", fast, MergeHook.NONE)) {
            assertThatThrownBy(killed::runOnce).isInstanceOf(MergeHooks.Killed.class);
            assertThat(f.ranges(partition)).isEmpty();
            sleep(1_300);
            assertThat(drain(rescuer)).contains(Outcome.FINISHED);
        }
        f.assertMergedExactlyOnce(partition);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aWorkerWhoseLeaseWasTakenOverCommitsNothing(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(3, 1_200, 0);
        MergeSettings fast = compaction.settings.withLease(Duration.ofMillis(100), Duration.ofSeconds(1));
        MergeHook stall = MergeHooks.onProgress((claim, plan, written) -> {
            if (written == 1000) {
                // a pause longer than the timeout (GC, SIGSTOP): its last heartbeat is old, another worker recovers it
                TestDatabase.execute("UPDATE merge_job SET heartbeat_at = now() - interval '1 minute' WHERE job_id = ?",
                        claim.jobId());
                assertThat(await(() -> compaction.jobs.recoverExpired(Duration.ofSeconds(1), 100, 5))).isPositive();
            }
        });
        try (MergeWorker stalled = compaction.worker("stalled", fast, stall)) {
            assertThat(stalled.runOnce()).isEqualTo(Outcome.LEASE_LOST);
        }
        assertThat(f.ranges(partition)).isEmpty();
        drain(compaction.worker("successor"));
        f.assertMergedExactlyOnce(partition);
    }
}
