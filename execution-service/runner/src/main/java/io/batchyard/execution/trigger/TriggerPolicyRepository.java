package io.batchyard.execution.trigger;

import io.batchyard.execution.bucket.BucketGrain;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * trigger_policy: one row per parent that was given a policy (or a grain and zone for its consumers); no row reads as
 * {@link TriggerSettings#NONE}.
 */
@ApplicationScoped
public class TriggerPolicyRepository extends SqlRepository {

    private static final String SETTINGS = """
            SELECT policy, array_to_string(inputs, ',') AS inputs, inputs IS NULL AS default_inputs, n,
                   timeout_seconds, grain, zone, coalesce_inputs, paused
            FROM trigger_policy""";

    /** Replaces the settings of a parent (its pause, pending trigger and launch failure stay as they are). */
    public Uni<Void> save(long processId, TriggerSettings s) {
        return update("""
                INSERT INTO trigger_policy (process_id, policy, inputs, n, timeout_seconds, grain, zone,
                                            coalesce_inputs)
                VALUES (:p, :policy, CAST(string_to_array(CAST(:inputs AS text), ',') AS bigint[]), CAST(:n AS int),
                        CAST(:timeout AS bigint), :grain, CAST(:zone AS text), :coalesce)
                ON CONFLICT (process_id) DO UPDATE SET policy = EXCLUDED.policy, inputs = EXCLUDED.inputs,
                    n = EXCLUDED.n, timeout_seconds = EXCLUDED.timeout_seconds, grain = EXCLUDED.grain,
                    zone = EXCLUDED.zone, coalesce_inputs = EXCLUDED.coalesce_inputs, updated_at = now()""",
                Params.of("p", processId).and("policy", s.policy().text())
                        .and("inputs", s.inputs() == null ? null : s.inputs().stream().map(String::valueOf)
                                .collect(Collectors.joining(",")))
                        .and("n", s.n()).and("timeout", s.timeout() == null ? null : s.timeout().toSeconds())
                        .and("grain", s.grainText()).and("zone", s.zone()).and("coalesce", s.coalesce()))
                .replaceWithVoid();
    }

    public Uni<TriggerPolicy> find(long processId) {
        return settings(processId).map(TriggerSettings::policy);
    }

    /** The parent's settings; {@link TriggerSettings#NONE} when it was never given a policy. */
    public Uni<TriggerSettings> settings(long processId) {
        return first(SETTINGS + " WHERE process_id = :p", Params.of("p", processId), TriggerPolicyRepository::settings)
                .map(found -> found.orElse(TriggerSettings.NONE));
    }

    /**
     * The parent's settings with its row locked for the caller's transaction: the decisions about one parent's
     * buckets are made one at a time. Empty when it has no policy row.
     */
    public Uni<Optional<TriggerSettings>> lock(long processId) {
        return first(SETTINGS + " WHERE process_id = :p FOR UPDATE", Params.of("p", processId),
                TriggerPolicyRepository::settings);
    }

    /**
     * The parent a batch enqueued for {@code step} would trigger, when that parent takes no trigger (it has no policy
     * row, or policy none): one read of the step's definition and its parent's policy. Empty when the step is unknown
     * here or its parent has a policy.
     */
    public Uni<Optional<Long>> parentWithoutPolicy(long step) {
        return value("""
                        SELECT s.parent_id FROM (
                            SELECT COALESCE(d.parent_process_id, d.process_id) AS parent_id
                              FROM process_definition d WHERE d.process_id = :step) s
                          LEFT JOIN trigger_policy p ON p.process_id = s.parent_id
                         WHERE p.policy IS NULL OR p.policy = 'none'""",
                Long.class, Params.of("step", step));
    }

    /** The settings of these processes that have a row (a producer's grain and zone say how its markings read). */
    public Uni<Map<Long, TriggerSettings>> settingsOf(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list(SETTINGS.replace("SELECT policy", "SELECT process_id, policy") + " WHERE process_id IN (:ps)",
                Params.of("ps", processIds), r -> Map.entry(r.getLong("process_id"), settings(r)))
                .map(rows -> rows.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    /**
     * Pauses or resumes the parent's triggered runs (a parent without a row gets one, policy none); false when it
     * already was so.
     */
    public Uni<Boolean> setPaused(long processId, boolean paused) {
        return update("""
                INSERT INTO trigger_policy (process_id, policy, paused) VALUES (:p, 'none', :paused)
                ON CONFLICT (process_id) DO UPDATE SET paused = EXCLUDED.paused, updated_at = now()
                WHERE trigger_policy.paused <> EXCLUDED.paused""",
                Params.of("p", processId).and("paused", paused)).map(n -> n == 1);
    }

    private static TriggerSettings settings(Row r) {
        Long timeout = r.getLongOrNull("timeout_seconds");
        String grain = r.getString("grain");
        return new TriggerSettings(TriggerPolicy.of(r.getString("policy")),
                r.getBoolean("default_inputs") ? null : r.getLongs("inputs"), r.getIntOrNull("n"),
                timeout == null ? null : Duration.ofSeconds(timeout),
                BucketGrain.of(grain).orElse(null), r.getString("zone"), r.getBoolean("coalesce_inputs"),
                r.getBoolean("paused"));
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
