package io.batchyard.execution.runner;

import io.batchyard.execution.bucket.BucketEligibility;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.persistence.InOrder;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/** runner_job, runner_dependency and runner_schedule; joins the caller's transaction. */
@ApplicationScoped
public class RunnerJobRepository extends SqlRepository {

    private final ServiceClock clock;

    public RunnerJobRepository(ServiceClock clock) {
        this.clock = clock;
    }

    public Uni<Void> save(RunnerJob job) {
        long pid = job.processId();
        Uni<Integer> saved = update("""
                INSERT INTO runner_job (process_id, enabled, bucket, is_batch, is_exact_match, max_batch_size, retry_failed,
                    context_value, context_file, context_script, step_concurrency, timeout_seconds, on_init, on_success, on_error,
                    max_attempts, retry_backoff_seconds, retry_max_backoff_seconds)
                VALUES (:p, :enabled, CAST(:bucket AS text), :batch, :exact, CAST(:maxBatch AS int), :retry,
                    CAST(:cv AS text), CAST(:cf AS text), CAST(:cs AS text), :conc, :timeout,
                    CAST(:hi AS text), CAST(:hs AS text), CAST(:he AS text), :attempts, :backoff, :maxBackoff)
                ON CONFLICT (process_id) DO UPDATE SET enabled = EXCLUDED.enabled, bucket = EXCLUDED.bucket,
                    is_batch = EXCLUDED.is_batch, is_exact_match = EXCLUDED.is_exact_match,
                    max_batch_size = EXCLUDED.max_batch_size, retry_failed = EXCLUDED.retry_failed,
                    context_value = EXCLUDED.context_value, context_file = EXCLUDED.context_file,
                    context_script = EXCLUDED.context_script, step_concurrency = EXCLUDED.step_concurrency,
                    timeout_seconds = EXCLUDED.timeout_seconds, on_init = EXCLUDED.on_init,
                    on_success = EXCLUDED.on_success, on_error = EXCLUDED.on_error,
                    max_attempts = EXCLUDED.max_attempts, retry_backoff_seconds = EXCLUDED.retry_backoff_seconds,
                    retry_max_backoff_seconds = EXCLUDED.retry_max_backoff_seconds, updated_at = now()""",
                Params.of("p", pid).and("enabled", job.enabled()).and("bucket", job.bucket()).and("batch", job.batch())
                        .and("exact", job.exactMatch()).and("maxBatch", job.maxBatchSize()).and("retry", job.retryFailed())
                        .and("cv", job.context().value()).and("cf", job.context().file()).and("cs", job.context().script())
                        .and("conc", job.stepConcurrency()).and("timeout", job.timeoutSeconds())
                        .and("hi", job.hooks().onInit()).and("hs", job.hooks().onSuccess()).and("he", job.hooks().onError())
                        .and("attempts", job.retry().maxAttempts()).and("backoff", job.retry().backoffSeconds())
                        .and("maxBackoff", job.retry().maxBackoffSeconds()))
                .chain(() -> update("DELETE FROM runner_dependency WHERE process_id = :p", Params.of("p", pid)));
        List<RunnerJob.Dependency> deps = job.dependencies();
        Uni<Void> withDependencies = saved.chain(() -> InOrder.each(IntStream.range(0, deps.size()).boxed().toList(),
                i -> update("""
                        INSERT INTO runner_dependency (process_id, seq, dep_process_id, dep_script)
                        VALUES (:p, :s, CAST(:d AS bigint), CAST(:script AS text))""",
                        Params.of("p", pid).and("s", i + 1).and("d", deps.get(i).processId())
                                .and("script", deps.get(i).script()))));
        if (job.schedule() == null) {
            return withDependencies.chain(() -> update("DELETE FROM runner_schedule WHERE process_id = :p",
                    Params.of("p", pid))).replaceWithVoid();
        }
        // A changed schedule starts counting from now: it must not fire for the past it never had.
        return withDependencies.chain(() -> update("""
                INSERT INTO runner_schedule (process_id, cron, time_zone, last_fired_at)
                VALUES (:p, :cron, :tz, CAST(:now AS timestamptz))
                ON CONFLICT (process_id) DO UPDATE SET cron = EXCLUDED.cron, time_zone = EXCLUDED.time_zone,
                    last_fired_at = CASE WHEN runner_schedule.cron = EXCLUDED.cron
                                          AND runner_schedule.time_zone = EXCLUDED.time_zone
                                         THEN runner_schedule.last_fired_at ELSE CAST(:now AS timestamptz) END""",
                Params.of("p", pid).and("cron", job.schedule().cron()).and("tz", job.schedule().timeZone())
                        .and("now", clock.now())))
                .replaceWithVoid();
    }

    public Uni<Optional<RunnerJob>> find(long processId) {
        return first("""
                SELECT process_id, enabled, bucket, is_batch, is_exact_match, max_batch_size, retry_failed, context_value,
                  context_file, context_script, step_concurrency, timeout_seconds, on_init, on_success, on_error,
                  max_attempts, retry_backoff_seconds, retry_max_backoff_seconds
                FROM runner_job WHERE process_id = :p""", Params.of("p", processId), RunnerJobRepository::job)
                .chain(base -> base.isEmpty() ? Uni.createFrom().item(base) : withDetails(base.get()).map(Optional::of));
    }

    public Uni<List<Long>> enabledWithWork() {
        return values("""
                SELECT j.process_id FROM runner_job j WHERE j.enabled AND (j.bucket IS NOT NULL OR EXISTS (
                    SELECT 1 FROM bucket_status b WHERE b.process_id = j.process_id AND""" + " "
                + BucketEligibility.condition("j.retry_failed", "j.max_attempts") + ")) ORDER BY j.process_id",
                Long.class, Params.of("now", clock.now()));
    }

    /** Which of {@code processIds} have a run policy, in one read. */
    public Uni<List<Long>> withPolicy(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return values("SELECT process_id FROM runner_job WHERE process_id IN (:ps) ORDER BY process_id", Long.class,
                Params.of("ps", List.copyOf(processIds)));
    }

    public Uni<Boolean> delete(long processId) {
        return update("DELETE FROM runner_job WHERE process_id = :p", Params.of("p", processId))
                .map(deleted -> deleted > 0);
    }

    private Uni<RunnerJob> withDetails(RunnerJob job) {
        return list("SELECT dep_process_id, dep_script FROM runner_dependency WHERE process_id = :p ORDER BY seq",
                Params.of("p", job.processId()), RunnerJobRepository::dependency)
                .chain(deps -> first("SELECT cron, time_zone FROM runner_schedule WHERE process_id = :p",
                        Params.of("p", job.processId()),
                        r -> new RunnerJob.Schedule(r.getString("cron"), r.getString("time_zone")))
                        .map(schedule -> new RunnerJob(job.processId(), job.enabled(), job.bucket(), job.batch(),
                                job.exactMatch(), job.maxBatchSize(), job.retryFailed(), job.retry(), job.context(),
                                job.stepConcurrency(), job.timeoutSeconds(), job.hooks(), deps, schedule.orElse(null))));
    }

    private static RunnerJob job(Row r) {
        return new RunnerJob(r.getLong("process_id"), r.getBoolean("enabled"), r.getString("bucket"),
                r.getBoolean("is_batch"), r.getBoolean("is_exact_match"), r.getIntOrNull("max_batch_size"),
                r.getBoolean("retry_failed"),
                new RunnerJob.Retry(r.getInt("max_attempts"), r.getInt("retry_backoff_seconds"),
                        r.getInt("retry_max_backoff_seconds")),
                new RunnerJob.Context(r.getString("context_value"), r.getString("context_file"),
                        r.getString("context_script")),
                r.getInt("step_concurrency"), r.getInt("timeout_seconds"),
                new RunnerJob.Hooks(r.getString("on_init"), r.getString("on_success"), r.getString("on_error")),
                List.of(), null);
    }

    private static RunnerJob.Dependency dependency(Row r) {
        return new RunnerJob.Dependency(r.getLongOrNull("dep_process_id"), r.getString("dep_script"));
    }
}
