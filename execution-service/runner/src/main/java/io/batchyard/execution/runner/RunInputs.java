package io.batchyard.execution.runner;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.UUID;

/**
 * What a run of some buckets consumes when another feature decided it (a trigger attributes batches to a bucket's
 * run): the runner asks before InitJob and claims exactly those batches, then names the run it became. Without such a
 * decision (a schedule, a bucket added over the API) the attribution is empty and the claim is the ordinary one. Each
 * call is a transaction of its own.
 *
 * <p>Several features decide runs (triggers, backfills); the runner asks them in {@link #rank} order and the first
 * with a decision for the buckets attributes the run. Live work ranks first, so a bucket a trigger and a backfill both
 * want runs for the trigger now and for the backfill afterwards.
 */
public interface RunInputs {

    /**
     * The decided runs a run of these buckets starts, and the source batches they consume (null: the ordinary claim,
     * for a decision that names none). {@code backfillId}: the backfill the run re-does history for, null for live
     * work.
     */
    record Attribution(List<Long> runIds, List<Long> sourceBatchIds, UUID backfillId) {

        public static final Attribution NONE = new Attribution(List.of(), List.of());

        public Attribution(List<Long> runIds, List<Long> sourceBatchIds) {
            this(runIds, sourceBatchIds, null);
        }

        public boolean empty() {
            return runIds.isEmpty();
        }
    }

    /** Lower ranks are asked first. */
    int rank();

    /** Marks the decided runs of these buckets as starting and answers what they consume. */
    Uni<Attribution> attribute(long processId, List<String> buckets);

    /** The decided runs became run {@code instanceExecId}. */
    Uni<Void> started(long processId, Attribution attribution, long instanceExecId);

    /** The decided runs did not start (a service InitJob needs did not answer): they wait for the next run again. */
    Uni<Void> notStarted(long processId, Attribution attribution);
}
