package io.batchyard.execution.backfill;

import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.lifecycle.Run;
import io.batchyard.execution.lifecycle.RunService;
import io.batchyard.execution.runner.RunInputs;
import io.batchyard.execution.runner.RunPolicyService;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.RunnerService;
import io.batchyard.persistence.InOrder;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Runs backfills, one transaction per step, each under the backfill's row lock so two replicas never step the same
 * backfill at once. A step takes a QUEUED backfill to RUNNING (its entries made, or a resume's failed ones PENDING
 * again), settles the entries in flight from the runner's bucket ledger, skips what consumes from a failure, ends the
 * backfill when nothing is left, and answers the entries to start now ({@link BackfillSteps}). Starting an entry is
 * handing its bucket to the runner: INIT again, whatever it was, with the batches its run claims by name; the runner
 * asks this class before InitJob ({@link RunInputs}) and claims exactly those, for this backfill.
 *
 * <p>An entry's run is the runner's, with the process's own run policy: a failed run is retried as the policy says, and
 * the entry fails only when its bucket is FAILED with no attempt left.
 */
@ApplicationScoped
public class BackfillRunService implements RunInputs {

    /** Who the driver's moves are recorded as. */
    static final String ACTOR = "backfill-driver";

    private final BackfillRepository backfills;
    private final BackfillEntryRepository entries;
    private final BackfillEvents events;
    private final BucketService buckets;
    private final RunService runs;
    private final RunPolicyService policies;
    private final RunnerService runner;
    private final ServiceClock clock;

    public BackfillRunService(BackfillRepository backfills, BackfillEntryRepository entries, BackfillEvents events,
                             BucketService buckets, RunService runs, RunPolicyService policies, RunnerService runner,
                             ServiceClock clock) {
        this.backfills = backfills;
        this.entries = entries;
        this.events = events;
        this.buckets = buckets;
        this.runs = runs;
        this.policies = policies;
        this.runner = runner;
        this.clock = clock;
    }

    /**
     * A step's outcome: the backfill as it is now, the entries to start, the entries in flight whose process no
     * runner holds (the runner that had it died, or the request for the run was lost: the runner is asked again,
     * which takes a dead runner's run over and resumes it), and every entry as the step read it after settling (the
     * re-made outputs the entries to start are offered).
     */
    public record Step(Backfill backfill, List<EntryRun> start, List<EntryRun> unattended, List<EntryRun> entries) {
    }

    /** The backfills a driver tick steps: waiting or running, and any other with an entry still in flight. */
    @WithSession
    public Uni<List<UUID>> live() {
        return backfills.waitingOrRunning().chain(active -> entries.withEntriesInFlight().map(inFlight -> {
            Set<UUID> all = new LinkedHashSet<>(active);
            all.addAll(inFlight);
            return List.copyOf(all);
        }));
    }

    @WithTransaction
    public Uni<Optional<Step>> step(UUID backfillId) {
        return backfills.lockBackfill(backfillId).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(Optional.<Step>empty());
            }
            return begin(found.get()).chain(b -> entries.entries(backfillId)
                    .chain(all -> InOrder.each(all.stream().filter(e -> e.state().inFlight()).toList(),
                            e -> settle(b, e, all)))
                    .chain(() -> entries.entries(backfillId))
                    .chain(all -> decide(b, all)))
                    .map(Optional::of);
        });
    }

    /** QUEUED → RUNNING: the plan's entries are made (a resume keeps them and makes failed ones PENDING again). */
    private Uni<Backfill> begin(Backfill b) {
        if (b.state() != BackfillState.QUEUED) {
            return Uni.createFrom().item(b);
        }
        return entries.materialise(b.backfillId()).chain(() -> entries.reopen(b.backfillId()))
                .chain(() -> backfills.move(b, BackfillState.RUNNING, ACTOR))
                .chain(() -> counts(b.backfillId()))
                .chain(counts -> events.moved(b, BackfillState.RUNNING, counts.entries(), counts))
                .chain(() -> backfills.findBackfill(b.backfillId())).map(Optional::orElseThrow);
    }

    /** An entry in flight, as the runner's bucket ledger tells it. */
    private Uni<Void> settle(Backfill b, EntryRun e, List<EntryRun> all) {
        return buckets.find(e.processId(), e.bucket()).chain(row -> {
            if (row.isEmpty()) {
                // Gone from the ledger (an operator's SQL): the entry still waits for its run.
                return buckets.ensure(e.processId(), e.bucket()).replaceWithVoid();
            }
            BucketStatus bucket = row.get();
            if (e.state() == EntryState.STARTING) {
                // The bucket ran without asking this backfill (another feature's run took it first): hand it over again.
                boolean ranWithout = bucket.status() == BucketStatus.State.COMPLETE
                        || bucket.status() == BucketStatus.State.FAILED;
                return ranWithout ? buckets.rearm(e.processId(), e.bucket(), true).replaceWithVoid()
                        : Uni.createFrom().voidItem();
            }
            if (bucket.status() == BucketStatus.State.COMPLETE) {
                Uni<Optional<Run>> run = e.instanceExecId() == null ? Uni.createFrom().item(Optional.empty())
                        : runs.find(e.instanceExecId());
                return run.chain(r -> entries.succeeded(b.backfillId(), e.entryNo(),
                                r.map(Run::targetBatchId).orElse(null), clock.now())
                        .chain(moved -> moved == 1 ? events.entry(b, e, EntryState.SUCCEEDED, e.instanceExecId(), null,
                                counts(all, e, EntryState.SUCCEEDED)) : Uni.createFrom().voidItem()));
            }
            if (bucket.status() == BucketStatus.State.FAILED) {
                return policies.job(e.processId()).chain(job -> {
                    if (retriesLeft(job, bucket)) {
                        return Uni.createFrom().voidItem();
                    }
                    String why = "run " + e.instanceExecId() + " of process " + e.processId() + " for bucket "
                            + e.bucket() + " failed: " + bucket.message();
                    return entries.move(b.backfillId(), e.entryNo(), EntryState.RUNNING, EntryState.FAILED, why,
                                    clock.now())
                            .chain(moved -> moved == 1 ? events.entry(b, e, EntryState.FAILED, e.instanceExecId(), why,
                                    counts(all, e, EntryState.FAILED)) : Uni.createFrom().voidItem());
                });
            }
            return Uni.createFrom().voidItem();
        });
    }

    /** Whether the runner will run a FAILED bucket again by the process's own policy. */
    private static boolean retriesLeft(Optional<RunnerJob> job, BucketStatus bucket) {
        return job.map(j -> j.retryFailed() && bucket.attempts() < j.retry().maxAttempts()).orElse(false);
    }

    private Uni<Step> decide(Backfill b, List<EntryRun> all) {
        // Which jobs a runner holds now, in one read: one waiting to start whose job has a run in progress waits
        // (live runs go first), and one in flight whose job no runner holds is unattended.
        List<Long> jobs = all.stream().filter(e -> e.state() == EntryState.PENDING || e.state().inFlight())
                .map(EntryRun::processId).distinct().toList();
        return runner.leasedAmong(jobs).chain(busy -> {
            List<EntryRun> unattended = all.stream().filter(e -> e.state().inFlight() && !busy.contains(e.processId()))
                    .toList();
            BackfillSteps.Next next = BackfillSteps.next(b.state(), b.onFailure(), b.concurrency(), all, busy);
            List<EntryRun> now = new ArrayList<>(all);
            return InOrder.each(next.skip(), e -> {
                        String why = "an entry it consumes from (" + e.consumes().stream()
                                .map(c -> String.valueOf(c.entryNo())).toList() + ") failed or was skipped";
                        return entries.move(b.backfillId(), e.entryNo(), EntryState.PENDING, EntryState.SKIPPED, why,
                                        clock.now())
                                .chain(() -> {
                                    now.replaceAll(x -> x.entryNo() == e.entryNo() ? x.with(EntryState.SKIPPED) : x);
                                    return events.entry(b, e, EntryState.SKIPPED, null, why,
                                            BackfillEvents.Counts.of(now));
                                });
                    })
                    .chain(() -> next.end().isEmpty() ? Uni.createFrom().item(b)
                            : backfills.move(b, next.end().get(), ACTOR)
                            .chain(() -> events.moved(b, next.end().get(), all.size(), BackfillEvents.Counts.of(now)))
                            .chain(() -> backfills.findBackfill(b.backfillId())).map(Optional::orElseThrow))
                    .map(moved -> new Step(moved, next.start(), unattended, all));
        });
    }

    /**
     * Hands an entry's bucket to the runner: PENDING → STARTING with the batches its run claims by name (null: the
     * ordinary claim), and the bucket INIT again whatever it was. False when the backfill no longer runs or the
     * bucket's run is in progress (the next step tries again).
     */
    @WithTransaction
    public Uni<Boolean> handOver(EntryRun e, List<Long> sourceBatchIds) {
        return backfills.lockBackfill(e.backfillId()).chain(found -> {
            if (found.isEmpty() || found.get().state() != BackfillState.RUNNING) {
                return Uni.createFrom().item(false);
            }
            Backfill b = found.get();
            return buckets.find(e.processId(), e.bucket()).chain(row -> {
                if (row.isPresent() && row.get().status() == BucketStatus.State.RUNNING) {
                    return Uni.createFrom().item(false);
                }
                return entries.starting(b.backfillId(), e.entryNo(), sourceBatchIds, clock.now()).chain(moved -> {
                    if (moved != 1) {
                        return Uni.createFrom().item(false);
                    }
                    Uni<Boolean> init = row.isEmpty() ? buckets.ensure(e.processId(), e.bucket())
                            : buckets.rearm(e.processId(), e.bucket(), true);
                    return init.chain(() -> counts(b.backfillId()))
                            .chain(counts -> events.entry(b, e, EntryState.STARTING, null, null, counts))
                            .replaceWith(true);
                });
            });
        });
    }

    /** An entry that cannot start (queue-service refused to offer its batches): FAILED with the reason. */
    @WithTransaction
    public Uni<Void> failToStart(EntryRun e, String why) {
        return backfills.lockBackfill(e.backfillId()).chain(found -> found.isEmpty() ? Uni.createFrom().voidItem()
                : entries.move(e.backfillId(), e.entryNo(), EntryState.PENDING, EntryState.FAILED, why, clock.now())
                .chain(moved -> moved != 1 ? Uni.createFrom().voidItem() : counts(e.backfillId())
                        .chain(counts -> events.entry(found.get(), e, EntryState.FAILED, null, why, counts))));
    }

    /** Where the backfill's entries are, counted by the database (no entry read). */
    private Uni<BackfillEvents.Counts> counts(UUID backfillId) {
        return entries.countByState(backfillId).map(BackfillEvents.Counts::of);
    }

    /** After live work: a bucket a trigger also wants runs for the trigger first. */
    @Override
    public int rank() {
        return 10;
    }

    @Override
    @WithTransaction
    public Uni<Attribution> attribute(long processId, List<String> bucketKeys) {
        return entries.attribute(processId, bucketKeys).map(taken -> {
            if (taken.isEmpty()) {
                return Attribution.NONE;
            }
            // Every entry names its batches, or the run's claim is the ordinary one.
            boolean named = taken.stream().allMatch(e -> e.sourceBatchIds() != null);
            List<Long> sources = named ? taken.stream().flatMap(e -> e.sourceBatchIds().stream()).distinct().toList()
                    : null;
            return new Attribution(taken.stream().map(e -> (long) e.entryNo()).toList(), sources,
                    taken.get(0).backfillId());
        });
    }

    @Override
    @WithTransaction
    public Uni<Void> started(long processId, Attribution attribution, long instanceExecId) {
        return entries.started(attribution.backfillId(), attribution.runIds(), instanceExecId).replaceWithVoid();
    }

    @Override
    @WithTransaction
    public Uni<Void> notStarted(long processId, Attribution attribution) {
        return entries.notStarted(attribution.backfillId(), attribution.runIds()).replaceWithVoid();
    }

    private static BackfillEvents.Counts counts(List<EntryRun> all, EntryRun changed, EntryState now) {
        return BackfillEvents.Counts.of(all.stream().map(x -> x.entryNo() == changed.entryNo() ? x.with(now) : x)
                .toList());
    }
}
