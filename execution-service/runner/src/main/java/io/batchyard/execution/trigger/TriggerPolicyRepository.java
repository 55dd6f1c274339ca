package io.batchyard.execution.trigger;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** trigger_policy: one row per parent that was given a policy; no row reads as {@link TriggerPolicy#NONE}. */
@ApplicationScoped
public class TriggerPolicyRepository extends SqlRepository {

    public Uni<Void> save(long processId, TriggerPolicy policy) {
        return update("""
                INSERT INTO trigger_policy (process_id, policy) VALUES (:p, :policy)
                ON CONFLICT (process_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now()""",
                Params.of("p", processId).and("policy", policy.text())).replaceWithVoid();
    }

    public Uni<TriggerPolicy> find(long processId) {
        return value("SELECT policy FROM trigger_policy WHERE process_id = :p", String.class, Params.of("p", processId))
                .map(found -> found.map(TriggerPolicy::of).orElse(TriggerPolicy.NONE));
    }

    /** Remembers that a trigger waits for the run in progress. */
    public Uni<Void> markPending(long processId) {
        return update("UPDATE trigger_policy SET pending = TRUE WHERE process_id = :p", Params.of("p", processId))
                .replaceWithVoid();
    }

    /** Clears the pending trigger; true when there was one (of two runners ending at once, one takes it). */
    public Uni<Boolean> takePending(long processId) {
        return update("UPDATE trigger_policy SET pending = FALSE WHERE process_id = :p AND pending",
                Params.of("p", processId)).map(updated -> updated == 1);
    }

    /** Remembers the latest batch an enqueuing process delivered to the parent since its last triggered run. */
    public Uni<Void> recordDelivery(long processId, long enqueuerId, long sourceBatchId) {
        return update("""
                INSERT INTO trigger_delivery (process_id, enqueuer_id, source_batch_id) VALUES (:p, :e, :b)
                ON CONFLICT (process_id, enqueuer_id)
                DO UPDATE SET source_batch_id = EXCLUDED.source_batch_id, delivered_at = now()""",
                Params.of("p", processId).and("e", enqueuerId).and("b", sourceBatchId)).replaceWithVoid();
    }

    /** The enqueuing processes that delivered to the parent since its last triggered run. */
    public Uni<List<Long>> delivered(long processId) {
        return values("SELECT enqueuer_id FROM trigger_delivery WHERE process_id = :p ORDER BY enqueuer_id", Long.class,
                Params.of("p", processId));
    }

    /** The parent's triggered run starts: what was delivered is its input, the next run waits for new batches. */
    public Uni<Void> clearDeliveries(long processId) {
        return update("DELETE FROM trigger_delivery WHERE process_id = :p", Params.of("p", processId))
                .replaceWithVoid();
    }

    /** Records why the launcher hook could not start the parent (cut to the column's size). */
    public Uni<Void> recordLaunchFailure(long processId, String reason) {
        String text = reason == null ? "unknown" : reason.length() > 1000 ? reason.substring(0, 1000) : reason;
        return update("UPDATE trigger_policy SET launch_failure = :r, launch_failed_at = now() WHERE process_id = :p",
                Params.of("p", processId).and("r", text)).replaceWithVoid();
    }

    /** A launch succeeded: the earlier failure is no longer a reason. */
    public Uni<Void> clearLaunchFailure(long processId) {
        return update("UPDATE trigger_policy SET launch_failure = NULL, launch_failed_at = NULL WHERE process_id = :p"
                + " AND launch_failure IS NOT NULL", Params.of("p", processId)).replaceWithVoid();
    }

    /** Why the last launch of the parent failed, when it did and none succeeded since. */
    public Uni<Optional<String>> launchFailure(long processId) {
        return value("SELECT launch_failure FROM trigger_policy WHERE process_id = :p AND launch_failure IS NOT NULL",
                String.class, Params.of("p", processId));
    }
}
