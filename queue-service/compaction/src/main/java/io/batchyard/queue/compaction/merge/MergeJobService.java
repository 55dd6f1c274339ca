package io.batchyard.queue.compaction.merge;

import static io.batchyard.queue.compaction.error.CompactionError.JOB_NOT_DEAD;
import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_JOB;
import static io.batchyard.queue.compaction.merge.MergeJobState.DEAD;
import static io.batchyard.queue.compaction.merge.MergeJobState.ONGOING;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.access.Visibility;
import io.batchyard.queue.access.AccessChecks;
import io.batchyard.queue.clock.ServiceClock;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionAccess;
import io.batchyard.queue.compaction.partition.PartitionService;
import io.batchyard.queue.compaction.partition.SmallObject;
import io.batchyard.queue.compaction.partition.SmallObjectService;
import io.batchyard.queue.compaction.table.CompactionTable;
import io.batchyard.queue.compaction.table.TableService;
import io.batchyard.queue.compaction.table.TableSettings;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The merge-job queue's use cases, each one transaction: claim, heartbeat, the fenced end of a run, failure and
 * dead-worker recovery, revival, and the reads the workers and the API need. A fenced write first locks the job and
 * checks the lease is still the caller's; when it is not, nothing is written and the result says so.
 */
@ApplicationScoped
public class MergeJobService {

    /**
     * What one merge run reads before it plans: the partition, its open range, the objects above it, and which of
     * those are quarantined, dropped or late (a range still covers their ids, but none of their records).
     */
    public record Inputs(Partition partition, Optional<MergeRange> open, List<SmallObject> unmerged, Set<Long> excluded,
                         long sizeCap) {
    }

    private final MergeJobRepository jobs;
    private final RangeRepository ranges;
    private final PartitionService partitions;
    private final SmallObjectService objects;
    private final ServiceClock clock;
    private final TableService tables;
    private final MergeSignal signal;
    private final PartitionAccess partitionAccess;
    private final AccessChecks access;
    private final TableSettings.Defaults defaults;

    public MergeJobService(MergeJobRepository jobs, RangeRepository ranges, PartitionService partitions,
                           SmallObjectService objects, ServiceClock clock,
                           TableService tables, MergeSignal signal, PartitionAccess partitionAccess,
                           AccessChecks access, TableSettings.Defaults defaults) {
        this.defaults = defaults;
        this.partitionAccess = partitionAccess;
        this.access = access;
        this.signal = signal;
        this.clock = clock;
        this.tables = tables;
        this.jobs = jobs;
        this.ranges = ranges;
        this.partitions = partitions;
        this.objects = objects;
    }

    /** The queue's jobs counted by state ({@link MergeMeters}). */
    @WithSession
    public Uni<Map<MergeJobState, Long>> countByState() {
        return jobs.countByState();
    }

    @WithTransaction
    public Uni<Optional<MergeJobClaim>> claim(String owner) {
        return jobs.claim(owner, clock.now());
    }

    /** A claimed job with what its first merge pass reads. */
    public record Claimed(MergeJobClaim claim, Inputs inputs) {
    }

    /**
     * Claims a due job and reads its partition's inputs in the same transaction: one database round trip fewer per
     * merge run than {@link #claim} and then {@link #inputs}. See {@link #inputs} for the parameters.
     */
    @WithTransaction
    public Uni<Optional<Claimed>> claimWithInputs(String owner, int fetchSize, long defaultSizeCap) {
        return jobs.claim(owner, clock.now()).chain(claimed -> claimed.isEmpty()
                ? Uni.createFrom().item(Optional.<Claimed>empty())
                : read(claimed.get().partitionId(), fetchSize, defaultSizeCap)
                        .map(in -> Optional.of(new Claimed(claimed.get(), in))));
    }

    /** The service clock's time, which schedules, leases and the recovery sweep are measured on. */
    public OffsetDateTime now() {
        return clock.now();
    }

    /** Refreshes the lease; false when it was lost (the job was recovered by another worker). */
    @WithTransaction
    public Uni<Boolean> heartbeat(MergeJobClaim claim) {
        return jobs.heartbeat(claim, clock.now());
    }

    @WithSession
    /**
     * @param defaultSizeCap the worker's size cap, used when the partition's table has none of its own; the table's is
     *                       read here, at each run, so a changed setting applies from the next run on
     */
    public Uni<Inputs> inputs(long partitionId, int fetchSize, long defaultSizeCap) {
        return read(partitionId, fetchSize, defaultSizeCap);
    }

    private Uni<Inputs> read(long partitionId, int fetchSize, long defaultSizeCap) {
        return partitions.find(partitionId).map(Optional::orElseThrow).chain(p -> tables.find(p.tableId())
                .map(t -> t.map(CompactionTable::settings).map(TableSettings::mergedObjectSize).orElse(null))
                .chain(tableCap -> ranges.openRange(partitionId).chain(open -> {
                    long above = open.map(MergeRange::upperBound).orElse(0L);
                    long cap = tableCap != null ? tableCap : defaultSizeCap;
                    return objects.unmerged(partitionId, above, fetchSize)
                            .chain(unmerged -> objects.excludedAbove(partitionId, above)
                                    .map(excluded -> new Inputs(p, open, unmerged, excluded(excluded, unmerged), cap)));
                })));
    }

    /** Quarantined and dropped objects, and late ones: a rebuild, not an ordinary merge, takes them in. */
    private static Set<Long> excluded(List<Long> quarantined, List<SmallObject> unmerged) {
        Set<Long> excluded = new HashSet<>(quarantined);
        unmerged.stream().filter(SmallObject::late).map(SmallObject::objectId).forEach(excluded::add);
        return Set.copyOf(excluded);
    }

    /**
     * Sets a bad small object aside, in the claimed run: the run goes on with the rest of the partition, so this is
     * not a failed attempt. False (and nothing written) when the lease was lost.
     */
    @WithTransaction
    public Uni<Boolean> quarantine(MergeJobClaim claim, SmallObject object, Integer lineNumber, String error) {
        return jobs.holds(claim).call(held -> !held ? Uni.createFrom().voidItem()
                : objects.quarantine(object.objectId(), claim.partitionId(), object.sourceKey(), lineNumber, error));
    }

    /** FINISHED: nothing left to merge, the job goes. False (and nothing written) when the lease was lost. */
    @WithTransaction
    public Uni<Boolean> finish(MergeJobClaim claim) {
        return jobs.holds(claim).call(held -> held ? jobs.delete(claim.jobId()) : Uni.createFrom().voidItem());
    }

    /**
     * A merged object is durable under its key: its range, the desired manifest version and the job's end (or its
     * carry-over follow-up) commit together. False (and nothing written) when the lease was lost.
     */
    @WithTransaction
    public Uni<Boolean> commit(MergeJobClaim claim, MergeRange range, boolean continuing) {
        return jobs.holds(claim).call(held -> !held ? Uni.createFrom().voidItem()
                : ranges.upsert(claim.partitionId(), range)
                        .chain(() -> partitions.raiseDesired(claim.partitionId(), range.upperBound()))
                        .chain(() -> continuing ? continueLater(claim) : jobs.delete(claim.jobId())));
    }

    /** A run failed with an exception: retry after {@code backoff}, or dead-letter at {@code maxAttempts}. */
    @WithTransaction
    public Uni<MergeJobState> fail(MergeJobClaim claim, String error, Duration backoff, int maxAttempts) {
        return jobs.holds(claim).chain(held -> !held
                ? Uni.createFrom().item(ONGOING) // someone else owns it now; nothing of ours to undo
                : release(claim.jobId(), claim.partitionId(), clock.now().plus(backoff), claim.attempt(), maxAttempts,
                        error));
    }

    /**
     * Dead-worker recovery, run before each claim: ongoing jobs whose heartbeat is older than {@code timeout} go back
     * to pending with their original (past, so due) schedule, or to DEAD when their attempts are used up. Rows locked
     * by another recoverer are skipped, so two workers never recover the same job.
     *
     * @return jobs recovered
     */
    @WithTransaction
    public Uni<Integer> recoverExpired(Duration timeout, int limit, int maxAttempts) {
        return jobs.lockExpired(clock.now().minus(timeout), limit).call(expired -> InOrder.each(expired, e -> release(e.jobId(),
                        e.partitionId(), e.scheduleTime(), e.attempts(), maxAttempts,
                        "lease expired (no heartbeat for " + timeout + ")")))
                .map(List::size);
    }

    /**
     * Merge now: the partition's pending merge job, due later (its table's merge interval), becomes due at once. False
     * when no job was waiting for a later time (nothing to merge, a job already due or running, or a dead job: that
     * one is revived by {@link #revive}). Transactional: wake the workers with {@link #wakeWorkers} once it committed.
     */
    @WithTransaction
    public Uni<Boolean> expedite(long partitionId) {
        return jobs.expedite(partitionId, clock.now());
    }

    /** Ends the idle wait of this instance's merge workers (after a merge was made due now and committed). */
    public void wakeWorkers() {
        signal.wake();
    }

    /**
     * Merge now for {@code caller}: execute permission on the partition's table's application (314 when it may not
     * read it), then {@link #expedite(long)} in the same transaction.
     */
    @WithTransaction
    public Uni<Boolean> expedite(Caller caller, long partitionId) {
        return partitionAccess.require(caller, partitionId, Permission.EXECUTE).chain(p -> expedite(partitionId));
    }

    /**
     * Revives a dead job for {@code caller}: execute permission on its partition's table's application. 317 for a job
     * that does not exist or whose table the caller may not read, 318 for one that is not dead.
     */
    @WithTransaction
    public Uni<Void> revive(Caller caller, long jobId) {
        Supplier<ApiException> unknown = () -> UNKNOWN_JOB.exception("merge job " + jobId + " does not exist");
        return jobs.find(jobId).map(found -> found.orElseThrow(unknown))
                .call(job -> partitions.find(job.partitionId()).map(found -> found.orElseThrow(unknown))
                        .chain(p -> access.require(caller, p.applicationId(), Permission.EXECUTE,
                                "merge job " + jobId, unknown)))
                .chain(job -> revive(jobId).invoke(revived -> {
                    if (!revived) {
                        throw JOB_NOT_DEAD.exception("merge job " + jobId + " is " + job.state());
                    }
                }))
                .replaceWithVoid();
    }

    /** DEAD -> PENDING, due at once, with a fresh attempt budget. False when the job is not dead. */
    @WithTransaction
    public Uni<Boolean> revive(long jobId) {
        return jobs.lockDead(jobId).chain(partition -> {
            if (partition.isEmpty()) {
                return Uni.createFrom().item(false);
            }
            DEAD.next(MergeJobState.Event.REVIVE);
            return jobs.requeue(jobId, partition.get(), clock.now(), 0, null).replaceWith(true);
        });
    }

    /** Partitions holding objects that wait for their table's mergeable window, for {@link #enqueueIfMergeable}. */
    @WithSession
    public Uni<List<Long>> partitionsWaiting() {
        return objects.partitionsWaiting();
    }

    /**
     * The mergeable window reached a partition whose objects wait for it (time passed, or the table's mergeable delay
     * grew): its merge job is made, due in the table's merge interval from now, and its objects wait no longer. False
     * while the partition is still outside its window.
     */
    @WithTransaction
    public Uni<Boolean> enqueueIfMergeable(long partitionId) {
        return partitions.find(partitionId).map(Optional::orElseThrow).chain(p -> tables.find(p.tableId())
                .map(Optional::orElseThrow).chain(t -> {
                    TableSettings.Effective settings = t.settings().effective(defaults, t.zoneOffsetMinutes());
                    if (settings.window(p.partitionDate(), clock.instant()) != TableSettings.Window.INSIDE) {
                        return Uni.createFrom().item(false);
                    }
                    return jobs.enqueue(partitionId, clock.now().plus(t.mergeInterval()))
                            .chain(() -> objects.stopWaiting(partitionId)).replaceWith(true);
                }));
    }

    @WithSession
    public Uni<Optional<MergeJob>> find(long jobId) {
        return jobs.find(jobId);
    }

    /** Every job, for Batchyard's own use (tests, tools): no caller to check. */
    @WithSession
    public Uni<List<MergeJob>> list(MergeJobState state, Long partitionId, int limit, int offset) {
        return jobs.list(state, partitionId, Visibility.everything(), limit, offset);
    }

    @WithSession
    public Uni<Long> count(MergeJobState state, Long partitionId) {
        return jobs.count(state, partitionId, Visibility.everything());
    }

    /** The jobs of the partitions of tables the caller may read. */
    @WithSession
    public Uni<Page<MergeJob>> page(Caller caller, PageRequest page, MergeJobState state, Long partitionId) {
        return access.visibility(caller).chain(visible -> jobs.list(state, partitionId, visible, page.limit(),
                        page.offset())
                .chain(items -> jobs.count(state, partitionId, visible).map(total -> Page.of(items, total, page))));
    }

    /**
     * CONTINUING (carry-over): a follow-up due at once (the claimed job's own, past, schedule), merged into a pending
     * job that arrivals created meanwhile. The run succeeded, so the follow-up starts with no failed attempts.
     */
    private Uni<Integer> continueLater(MergeJobClaim claim) {
        ONGOING.next(MergeJobState.Event.CONTINUE);
        return jobs.requeue(claim.jobId(), claim.partitionId(), claim.scheduleTime(), 0, null);
    }

    private Uni<MergeJobState> release(long jobId, long partitionId, OffsetDateTime retryAt, int attempts,
                                       int maxAttempts, String error) {
        MergeJobState next = ONGOING.next(MergeJobState.afterFailure(attempts, maxAttempts));
        return (next == DEAD ? jobs.deadLetter(jobId, partitionId, error)
                : jobs.requeue(jobId, partitionId, retryAt, attempts, error)).replaceWith(next);
    }

    /** A pending job for the partition, due at {@code due}; true when a new one was created. Caller's transaction. */
    public Uni<Boolean> enqueue(long partitionId, OffsetDateTime due) {
        return jobs.enqueue(partitionId, due);
    }

    /** Makes the partition's pending job due at {@code now} at the latest; in the caller's transaction. */
    public Uni<Integer> dueBy(long partitionId, OffsetDateTime now) {
        return jobs.dueBy(partitionId, now);
    }

    /** The partition's jobs' states, locked until the caller's transaction ends. */
    public Uni<List<String>> lockStates(long partitionId) {
        return jobs.lockStates(partitionId);
    }
}
