package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.batchyard.queue.compaction.MergeHooks.sleep;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.merge.MergeHook;
import io.batchyard.queue.compaction.merge.MergeJob;
import io.batchyard.queue.compaction.merge.MergeJobClaim;
import io.batchyard.queue.compaction.merge.MergeJobState;
import io.batchyard.queue.compaction.merge.MergePlan;
import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.merge.MergeWorker;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@QueueTest
class MergeJobQueueTest {

    @Inject
    Compaction compaction;

    private List<MergeJob> jobsOf(long partitionId) {
        return await(() -> compaction.jobs.list(null, partitionId, 100, 0));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void mergeNowMakesAWaitingJobDueAtOnceAndOnlyThat(TestStore store) throws Exception {
        drain(compaction.worker("leftovers"));
        CompactionFixture f = new CompactionFixture(compaction, store, 3600);
        long partition = f.arrive(3, 5, 0);
        try (MergeWorker w = compaction.worker("merge-now")) {
            assertThat(w.runOnce()).as("due in an hour").isEqualTo(MergeWorker.Outcome.IDLE);
            given().post("/compaction/partitions/" + partition + "/merge").then().statusCode(200)
                    .body("partitionId", equalTo((int) partition)).body("expedited", equalTo(true));
            assertThat(jobsOf(partition)).singleElement().extracting(MergeJob::scheduleTime)
                    .satisfies(due -> assertThat(due).isBeforeOrEqualTo(OffsetDateTime.now()));
            assertThat(w.runOnce()).isEqualTo(MergeWorker.Outcome.FINISHED);
            f.assertMergedExactlyOnce(partition);
            given().post("/compaction/partitions/" + partition + "/merge").then().statusCode(200)
                    .body("expedited", equalTo(false));
            assertThat(jobsOf(partition)).as("merge-now creates no job").isEmpty();
        }
        given().post("/compaction/partitions/999999999/merge").then().statusCode(404).body("code", equalTo(314));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void arrivalsCoalesceIntoOnePendingJobThatKeepsTheFirstSchedule(TestStore store) throws Exception {
        CompactionFixture f = new CompactionFixture(compaction, store, 3600);
        long partition = f.arrive(1, 5, 0);
        OffsetDateTime first = jobsOf(partition).get(0).scheduleTime();
        Thread.sleep(20);
        f.arrive(4, 5, 0);
        List<MergeJob> jobs = jobsOf(partition);
        assertThat(jobs).hasSize(1);
        assertThat(jobs.get(0).state()).isEqualTo(MergeJobState.PENDING);
        assertThat(jobs.get(0).scheduleTime()).as("later arrivals never postpone the merge").isEqualTo(first);
        assertThat(first).isAfter(OffsetDateTime.now().plusMinutes(59));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anArrivalDuringAMergeQueuesOneFollowUpThatWaitsForTheOngoingJob(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(1, 5, 0);
        drain(compaction.worker("leftovers"));
        f.arrive(1, 5, 0);
        MergeJobClaim claim = claimOf(partition);
        f.arrive(2, 5, 0);
        assertThat(jobsOf(partition)).extracting(MergeJob::state)
                .containsExactlyInAnyOrder(MergeJobState.ONGOING, MergeJobState.PENDING);
        assertThat(await(() -> compaction.jobs.claim("other"))).as("the partition is busy: its pending job is not claimable")
                .isEmpty();
        // finishing is fenced: true says the lease was still held
        assertThat(await(() -> compaction.jobs.finish(claim))).isTrue();
        MergeJobClaim followUp = await(() -> compaction.jobs.claim("other")).orElseThrow();
        assertThat(followUp.partitionId()).isEqualTo(partition);
        await(() -> compaction.jobs.finish(followUp));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void twoConcurrentClaimersNeverGetTheSameJob(TestStore store) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 15; round++) {
                drain(compaction.worker("leftovers"));
                CompactionFixture f = new CompactionFixture(compaction, store, 0);
                long partition = f.arrive(1, 1, 0);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Optional<MergeJobClaim>>> claims = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    String owner = "claimer-" + i;
                    claims.add(pool.submit(() -> {
                        start.await();
                        return await(() -> compaction.jobs.claim(owner));
                    }));
                }
                start.countDown();
                int won = 0;
                for (Future<Optional<MergeJobClaim>> c : claims) {
                    if (c.get().isPresent()) {
                        assertThat(c.get().get().partitionId()).isEqualTo(partition);
                        won++;
                    }
                }
                assertThat(won).as("round %d: exactly one claimer wins", round).isEqualTo(1);
                MergeJob job = jobsOf(partition).get(0);
                await(() -> compaction.jobs.finish(new MergeJobClaim(job.jobId(), partition,
                        job.leaseOwner(), job.attempts(), job.scheduleTime())));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void twoWorkersInParallelMergeEveryRangeOnceAndEveryRecordOnce(TestStore store) throws Exception {
        drain(compaction.worker("leftovers"));
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        List<Long> partitions = new ArrayList<>();
        for (int d = 0; d < 12; d++) {
            for (int i = 0; i < 6; i++) {
                partitions.add(f.register(f.write(20, 10), f.date.plusDays(d)).object().partitionId());
            }
        }
        Map<String, AtomicInteger> merges = new ConcurrentHashMap<>();
        MergeHook count = MergeHooks.onWritten((claim, plan) -> {
            merges.computeIfAbsent(claim.partitionId() + ":" + plan.lower() + "-" + plan.upper(),
                    k -> new AtomicInteger()).incrementAndGet();
        });
        // batch size 2: every partition needs three runs, so the two workers interleave on the same partitions
        MergeSettings settings = compaction.settings.withBatchSize(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (MergeWorker a = compaction.worker("parallel-a", settings, count);
             MergeWorker b = compaction.worker("parallel-b", settings, count)) {
            Future<List<MergeWorker.Outcome>> ra = pool.submit(() -> drain(a));
            Future<List<MergeWorker.Outcome>> rb = pool.submit(() -> drain(b));
            assertThat(ra.get()).isNotEmpty();
            assertThat(rb.get()).isNotEmpty();
            assertThat(ra.get()).doesNotContain(MergeWorker.Outcome.LEASE_LOST, MergeWorker.Outcome.FAILED);
            assertThat(rb.get()).doesNotContain(MergeWorker.Outcome.LEASE_LOST, MergeWorker.Outcome.FAILED);
        } finally {
            pool.shutdownNow();
        }
        assertThat(merges.values()).as("no range was merged twice").allMatch(n -> n.get() == 1);
        for (long p : partitions.stream().distinct().toList()) {
            f.assertMergedExactlyOnce(p);
            assertThat(jobsOf(p)).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aDeadWorkersJobIsRecoveredAfterTheTimeoutWhileASlowLiveWorkerKeepsItsOwn(TestStore store) throws Exception {
        drain(compaction.worker("leftovers"));
        MergeSettings fast = compaction.settings.withLease(Duration.ofMillis(100), Duration.ofSeconds(1));
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long slowPartition = f.register(f.write(1500, 0), f.date).object().partitionId();
        MergeJobClaim[] slowClaim = new MergeJobClaim[1];
        CountDownLatch slowStarted = new CountDownLatch(1);
        MergeHook slowHook = MergeHooks.onProgress((claim, plan, written) -> {
            slowClaim[0] = claim;
            slowStarted.countDown();
            sleep(3_000); // three lease timeouts, heartbeating all along
        });
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (MergeWorker slow = compaction.worker("slow", fast, slowHook);
             MergeWorker dead = compaction.worker("dead", fast, MergeHooks.crashAfterFirstProgress());
             MergeWorker rescuer = compaction.worker("rescuer", fast, MergeHook.NONE)) {
            Future<MergeWorker.Outcome> slowRun = pool.submit(slow::runOnce);
            assertThat(slowStarted.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

            long deadPartition = f.register(f.write(1500, 0), f.date.plusDays(1)).object().partitionId();
            try {
                dead.runOnce();
            } catch (MergeHooks.Killed expected) {
                // the worker "died" mid-merge: its job stays ONGOING, nobody refreshes its heartbeat
            }
            assertThat(jobsOf(deadPartition)).singleElement().extracting(MergeJob::state, MergeJob::leaseOwner)
                    .containsExactly(MergeJobState.ONGOING, "dead");

            assertThat(rescuer.runOnce()).as("before the timeout nothing is claimable").isEqualTo(MergeWorker.Outcome.IDLE);
            sleep(1_300);
            // (drain: expired jobs that earlier tests abandoned are recovered too)
            assertThat(drain(rescuer)).contains(MergeWorker.Outcome.FINISHED);
            assertThat(jobsOf(deadPartition)).isEmpty();
            assertThat(jobsOf(slowPartition)).as("the slow worker's heartbeat kept its lease")
                    .singleElement().extracting(MergeJob::leaseOwner).isEqualTo("slow");
            assertThat(slowRun.get()).isEqualTo(MergeWorker.Outcome.FINISHED);
            f.assertMergedExactlyOnce(deadPartition);
            f.assertMergedExactlyOnce(slowPartition);
            assertThat(slowClaim[0].attempt()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aPartitionWhoseStoreFailsIsDeadLetteredAfterMaxAttemptsAndStaysParkedUntilRevived(TestStore store) throws Exception {
        drain(compaction.worker("leftovers"));
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(1, 3, 0);
        MergeSettings twoTries = compaction.settings.withRetries(2, Duration.ZERO);
        // an infrastructure failure (the store cannot take the merged object), unlike bad data, which is quarantined
        MergeHook brokenStore = MergeHooks.onWritten((claim, plan) -> {
            throw new java.io.UncheckedIOException(new java.io.IOException("store volume read-only"));
        });
        try (MergeWorker w = compaction.worker("poison", twoTries, brokenStore)) {
            assertThat(w.runOnce()).isEqualTo(MergeWorker.Outcome.FAILED);
            assertThat(jobsOf(partition)).singleElement().extracting(MergeJob::state, MergeJob::attempts)
                    .containsExactly(MergeJobState.PENDING, 1);
            assertThat(w.runOnce()).isEqualTo(MergeWorker.Outcome.FAILED);
            MergeJob dead = jobsOf(partition).get(0);
            assertThat(dead.state()).isEqualTo(MergeJobState.DEAD);
            assertThat(dead.lastError()).contains("store volume read-only");
            assertThat(w.runOnce()).as("a dead job is never claimed").isEqualTo(MergeWorker.Outcome.IDLE);

            f.arrive(1, 3, 0);
            assertThat(jobsOf(partition)).as("arrivals do not un-park the partition").singleElement()
                    .extracting(MergeJob::state).isEqualTo(MergeJobState.DEAD);

            assertThat(await(() -> compaction.jobs.revive(dead.jobId()))).isTrue();
            assertThat(jobsOf(partition)).singleElement().extracting(MergeJob::state, MergeJob::attempts)
                    .containsExactly(MergeJobState.PENDING, 0);
        }
    }


    private MergeJobClaim claimOf(long partition) {
        MergeJobClaim claim = await(() -> compaction.jobs.claim("test")).orElseThrow();
        assertThat(claim.partitionId()).isEqualTo(partition);
        return claim;
    }
}
