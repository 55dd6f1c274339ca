package io.batchyard.execution.runner;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * What a run of some buckets consumes when another feature decided it (a trigger attributes batches to a bucket's
 * run): the runner asks before InitJob and claims exactly those batches, then names the run it became. Without such a
 * decision (a schedule, a bucket added over the API) the attribution is empty and the claim is the ordinary one. Each
 * call is a transaction of its own.
 */
public interface RunInputs {

    /** The decided runs a run of these buckets starts, and the source batches they consume. */
    record Attribution(List<Long> runIds, List<Long> sourceBatchIds) {

        public static final Attribution NONE = new Attribution(List.of(), List.of());

        public boolean empty() {
            return runIds.isEmpty();
        }
    }

    /** Marks the decided runs of these buckets as starting and answers what they consume. */
    Uni<Attribution> attribute(long processId, List<String> buckets);

    /** The decided runs became run {@code instanceExecId}. */
    Uni<Void> started(long processId, Attribution attribution, long instanceExecId);

    /** The decided runs did not start (a service InitJob needs did not answer): they wait for the next run again. */
    Uni<Void> notStarted(long processId, Attribution attribution);
}
