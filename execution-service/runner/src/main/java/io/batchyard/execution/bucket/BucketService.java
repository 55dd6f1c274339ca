package io.batchyard.execution.bucket;

import io.batchyard.execution.bucket.BucketStatus.State;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bucket ledger as other features see it. Every method runs in the caller's session and transaction: the ledger
 * moves together with the use case that moves it (a claim, a run's end, a trigger, a schedule's fire).
 */
@ApplicationScoped
public class BucketService {

    private final BucketRepository ledger;

    public BucketService(BucketRepository ledger) {
        this.ledger = ledger;
    }

    /** Adds an INIT bucket unless it is known; true when it was added. */
    public Uni<Boolean> ensure(long processId, String bucket) {
        return ledger.ensure(processId, bucket);
    }

    /**
     * A triggered run's bucket is INIT again when it was COMPLETE, or FAILED with {@code failedToo} (new data came);
     * true when it is INIT now.
     */
    public Uni<Boolean> rearm(long processId, String bucket, boolean failedToo) {
        return ledger.rearm(processId, bucket, failedToo);
    }

    /** Takes INIT buckets back out of the runner's reach; answers how many. */
    public Uni<Integer> withdraw(long processId, List<String> buckets) {
        return ledger.withdraw(processId, buckets);
    }

    /** The buckets a run may take now, in order (see {@link BucketEligibility}). */
    public Uni<List<String>> eligible(long processId, boolean includeFailed, int maxAttempts) {
        return ledger.eligible(processId, includeFailed, maxAttempts);
    }

    public Uni<Optional<BucketStatus>> find(long processId, String bucket) {
        return ledger.find(processId, bucket);
    }

    /** The ledger rows of these processes with a bucket from {@code from} to {@code to}, both included. */
    public Uni<List<BucketStatus>> between(List<Long> processIds, String from, String to) {
        return ledger.between(processIds, from, to);
    }

    public Uni<List<BucketStatus>> list(long processId, State status, int limit, int offset) {
        return ledger.list(processId, status, limit, offset);
    }

    public Uni<Long> count(long processId, State status) {
        return ledger.count(processId, status);
    }

    /** How many buckets, of all processes, are in each state; a state no bucket is in is absent. */
    public Uni<Map<State, Long>> countByStatus() {
        return ledger.countByStatus();
    }

    /** Moves the buckets that are in {@code from} to {@code to}; returns how many moved (the guard is the state). */
    public Uni<Integer> move(long processId, List<String> buckets, State from, State to, Long instanceExecId,
                             String message) {
        return ledger.move(processId, buckets, from, to, instanceExecId, message);
    }

    /** These RUNNING buckets wait again (INIT), their claim's attempt uncounted: their run could not start yet. */
    public Uni<Integer> giveBack(long processId, List<String> buckets, String message) {
        return ledger.giveBack(processId, buckets, message);
    }

    /** Names the run that works on these RUNNING buckets. */
    public Uni<Void> attachRun(long processId, List<String> buckets, long instanceExecId) {
        return ledger.attachRun(processId, buckets, instanceExecId);
    }
}
