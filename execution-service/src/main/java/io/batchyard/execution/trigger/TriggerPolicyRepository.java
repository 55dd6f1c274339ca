package io.batchyard.execution.trigger;

import io.batchyard.execution.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** trigger_policy: one row per parent that was given a policy; no row reads as {@link TriggerPolicy#NONE}. */
@ApplicationScoped
public class TriggerPolicyRepository extends SqlRepository {

    public Uni<Void> save(long processId, TriggerPolicy policy) {
        return update("""
                INSERT INTO trigger_policy (process_id, policy) VALUES (:p, :policy)
                ON CONFLICT (process_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now()""",
                params("p", processId).and("policy", policy.text())).replaceWithVoid();
    }

    public Uni<TriggerPolicy> find(long processId) {
        return values("SELECT policy FROM trigger_policy WHERE process_id = :p", String.class, params("p", processId))
                .map(found -> found.isEmpty() ? TriggerPolicy.NONE : TriggerPolicy.of(found.get(0)));
    }

    /** Remembers that a trigger waits for the run in progress. */
    public Uni<Void> markPending(long processId) {
        return update("UPDATE trigger_policy SET pending = TRUE WHERE process_id = :p", params("p", processId))
                .replaceWithVoid();
    }

    /** Clears the pending trigger; true when there was one (of two runners ending at once, one takes it). */
    public Uni<Boolean> takePending(long processId) {
        return update("UPDATE trigger_policy SET pending = FALSE WHERE process_id = :p AND pending",
                params("p", processId)).map(updated -> updated == 1);
    }
}
