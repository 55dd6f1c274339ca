package io.batchyard.queue.compaction.merge;

import static io.batchyard.persistence.Blocking.await;

import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.SmallObject;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.ObjectStores;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * One merge worker: recover expired jobs, claim one, merge, commit. The merged object is written under a temporary name
 * and made durable and visible before the range is recorded, and the range, the desired version and the job's end
 * commit in one transaction that first checks the lease is still this worker's. A worker killed at any point therefore
 * leaves either the old range (its job is redone after the lease expires) or the new one, and a redo of the same inputs
 * writes the same key with the same bytes.
 *
 * <p>A worker blocks (file I/O, the merge itself) and runs on a thread of its own; it reaches the database only
 * through {@link MergeJobService}, waiting for each call ({@link Blocking#await}).
 */
public final class MergeWorker implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MergeWorker.class);

    /** How one {@link #runOnce()} ended. */
    public enum Outcome {
        /** No due job. */
        IDLE,
        /** The partition is fully merged; the job is gone. */
        FINISHED,
        /** Something was merged and more is left; a follow-up job is due at once (carry-over). */
        CONTINUING,
        /** The run failed; the job is retried later or dead-lettered. */
        FAILED,
        /** The lease expired during the run and another worker owns the job now; nothing was committed. */
        LEASE_LOST
    }

    /** The lease was lost: abort without committing anything. */
    static final class LeaseLost extends RuntimeException {
        LeaseLost(MergeJobClaim claim) {
            super("lease of merge job " + claim.jobId() + " lost", null, false, false);
        }
    }

    private final String id;
    private final ObjectStores stores;
    private final MergeJobService jobs;
    private final MergeSettings settings;
    private final MergePlanner planner;
    private final MergeHook hook;
    private final MergeMeters meters;
    private final RecordMerger merger = new RecordMerger();
    private final ScheduledExecutorService heartbeats;
    /** When this worker last swept for expired leases (service clock). */
    private OffsetDateTime lastSweep;
    /** The inputs read with the claim, for the run's first pass; later passes (after a quarantine) read anew. */
    private MergeJobService.Inputs firstInputs;

    public MergeWorker(String id, ObjectStores stores, MergeJobService jobs, MergeSettings settings, MergeHook hook,
                       MergeMeters meters) {
        this.id = id;
        this.meters = meters;
        this.stores = stores;
        this.jobs = jobs;
        this.settings = settings;
        this.planner = new MergePlanner(settings.sizeCap(), settings.batchSize());
        this.hook = hook;
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "merge-heartbeat-" + id);
            t.setDaemon(true);
            return t;
        });
    }

    public String id() {
        return id;
    }

    /** Recovers expired jobs (at most every tenth of the job timeout), then claims and runs at most one. */
    public Outcome runOnce() {
        OffsetDateTime now = jobs.now();
        // A lease expires only after the job timeout, so a sweep before every claim (one more transaction per merge
        // run) finds nothing almost always; every tenth of the timeout delays a recovery by at most that much. A clock
        // moved back sweeps at once.
        if (lastSweep == null || now.isBefore(lastSweep)
                || !now.isBefore(lastSweep.plus(settings.jobTimeout().dividedBy(10)))) {
            await(() -> jobs.recoverExpired(settings.jobTimeout(), settings.recoverBatch(), settings.maxAttempts()));
            lastSweep = now;
        }
        Optional<MergeJobService.Claimed> claimed = await(() -> jobs.claimWithInputs(id, planner.fetchSize(),
                settings.sizeCap()));
        if (claimed.isEmpty()) {
            return Outcome.IDLE;
        }
        MergeJobClaim claim = claimed.get().claim();
        firstInputs = claimed.get().inputs();
        AtomicBoolean lost = new AtomicBoolean();
        long every = settings.heartbeatInterval().toMillis();
        ScheduledFuture<?> beat = heartbeats.scheduleAtFixedRate(() -> beat(claim, lost), every, every, TimeUnit.MILLISECONDS);
        try {
            return merge(claim, lost);
        } catch (LeaseLost e) {
            LOG.warnf("worker %s: %s; its successor redoes the merge", id, e.getMessage());
            return Outcome.LEASE_LOST;
        } catch (Exception e) {
            // Errors (a killed worker in tests, OOM) are deliberately not caught: the job then stays ONGOING and is
            // recovered by another worker once its heartbeat is older than the timeout, as after a real crash.
            MergeJobState next = await(() -> jobs.fail(claim, e.getClass().getSimpleName() + ": " + e.getMessage(),
                    settings.retryBackoff(), settings.maxAttempts()));
            LOG.warnf("worker %s: merge job %d (partition %d, attempt %d) failed, now %s: %s", id, claim.jobId(),
                    claim.partitionId(), claim.attempt(), next, e.getMessage());
            return Outcome.FAILED;
        } finally {
            beat.cancel(false);
        }
    }

    private void beat(MergeJobClaim claim, AtomicBoolean lost) {
        try {
            if (!await(() -> jobs.heartbeat(claim))) {
                lost.set(true);
            }
        } catch (RuntimeException e) {
            // the database is unreachable: the lease may expire, and the fenced commit will then refuse our range
            LOG.debugf("worker %s: heartbeat failed: %s", id, e.getMessage());
        }
    }

    /**
     * Merges the next plan of the partition. A small object that cannot be merged is quarantined and the partition is
     * planned again without it, in the same run: one bad object neither fails the attempt nor holds back the objects
     * registered after it. Each pass quarantines another object of a bounded batch, so the loop ends.
     */
    private Outcome merge(MergeJobClaim claim, AtomicBoolean lost) throws IOException {
        while (true) {
            try {
                return mergeOnce(claim, lost);
            } catch (Unusable bad) {
                fenced(claim, await(() -> jobs.quarantine(claim, bad.object, bad.lineNumber, bad.getMessage())));
                LOG.warnf("worker %s: partition %d: object %d (%s) quarantined%s: %s; merging the rest", id,
                        claim.partitionId(), bad.object.objectId(), bad.object.sourceKey(),
                        bad.lineNumber == null ? "" : " at line " + bad.lineNumber, bad.getMessage());
            }
        }
    }

    /** A small object of the plan that cannot be merged (bad data, not a broken store). */
    private static final class Unusable extends RuntimeException {
        final SmallObject object;
        final Integer lineNumber;

        Unusable(SmallObject object, Integer lineNumber, String message) {
            super(message, null, false, false);
            this.object = object;
            this.lineNumber = lineNumber;
        }
    }

    private Outcome mergeOnce(MergeJobClaim claim, AtomicBoolean lost) throws IOException {
        long pid = claim.partitionId();
        MergeJobService.Inputs read = firstInputs;
        firstInputs = null;
        MergeJobService.Inputs in = read != null ? read
                : await(() -> jobs.inputs(pid, planner.fetchSize(), settings.sizeCap()));
        // the size cap is the table's at this run (a setting changed since the last run applies now)
        MergePlanner planner = in.sizeCap() == settings.sizeCap() ? this.planner
                : new MergePlanner(in.sizeCap(), settings.batchSize());
        Partition p = in.partition();
        ObjectStore store = stores.of(p.store());
        Optional<MergeRange> open = in.open();
        List<SmallObject> unmerged = in.unmerged();
        // Quarantined and dropped objects take part in planning with no bytes: the range still covers their ids, so
        // the chain stays gapless and the partition can switch, but none of their records are read.
        Optional<MergePlan> planned = planner.plan(open, unmerged.stream()
                .map(o -> new MergePlanner.Candidate(o.objectId(), in.excluded().contains(o.objectId()) ? 0 : o.contentLength()))
                .toList());
        if (planned.isEmpty()) {
            fenced(claim, await(() -> jobs.finish(claim)));
            return Outcome.FINISHED;
        }
        MergePlan plan = planned.get();
        Map<Long, SmallObject> byId = unmerged.stream().collect(Collectors.toMap(SmallObject::objectId, Function.identity()));
        RecordMerger.Source old = plan.extendsOpenRange() ? () -> store.open(ObjectKeys.merged(p.tablePrefix(),
                p.partitionDate(), open.get().lowerBound(), open.get().upperBound())) : null;
        List<SmallObject> merged = plan.objects().stream().map(c -> byId.get(c.objectId()))
                .filter(o -> !in.excluded().contains(o.objectId())).toList();
        List<RecordMerger.Source> inputs = merged.stream()
                .<RecordMerger.Source>map(o -> () -> store.open(smallObjectKey(p, o)))
                .toList();
        String key = ObjectKeys.merged(p.tablePrefix(), p.partitionDate(), plan.lower(), plan.upper());
        long records;
        long size;
        try (ObjectStore.PendingObject out = store.create(key)) {
            records = merger.merge(old, inputs, out.stream(), written -> {
                if (lost.get()) {
                    throw new LeaseLost(claim);
                }
                hook.recordsWritten(claim, plan, written);
            });
            if (lost.get()) {
                throw new LeaseLost(claim);
            }
            size = out.commit();
        } catch (RecordMerger.BadObject bad) {
            SmallObject object = merged.get(bad.input());
            if (bad.lineNumber() == null && !folderServed(store, p, object)) {
                // nothing of the object's folder is there: the store is not serving it (not mounted?), which is an
                // infrastructure failure for the job's retries, not bad data of one object
                throw new IOException("object store does not serve " + smallObjectKey(p, object), bad);
            }
            throw new Unusable(object, bad.lineNumber(), bad.getMessage());
        }
        hook.objectWritten(claim, plan);
        MergeRange range = new MergeRange(plan.lower(), plan.upper(), size, records);
        fenced(claim, await(() -> jobs.commit(claim, range, plan.continuing())));
        meters.merged(size);
        LOG.debugf("worker %s: partition %d merged (%d, %d] from %d object(s), %d record(s), %d bytes%s", id, pid,
                plan.lower(), plan.upper(), merged.size(), records, size, plan.continuing() ? ", continuing" : "");
        return plan.continuing() ? Outcome.CONTINUING : Outcome.FINISHED;
    }

    private static String smallObjectKey(Partition p, SmallObject o) {
        return ObjectKeys.smallObject(p.tablePrefix(), p.partitionDate(), o.objectId(), o.delayed());
    }

    /** Whether the store lists anything in the folder of a small object that it cannot find. */
    private static boolean folderServed(ObjectStore store, Partition p, SmallObject o) throws IOException {
        String key = smallObjectKey(p, o);
        return !store.list(key.substring(0, key.lastIndexOf('/') + 1)).isEmpty();
    }

    /** A fenced write found the lease taken over: it wrote nothing, and this run ends without a result. */
    private static void fenced(MergeJobClaim claim, boolean held) {
        if (!held) {
            throw new LeaseLost(claim);
        }
    }

    @Override
    public void close() {
        heartbeats.shutdownNow();
    }
}
