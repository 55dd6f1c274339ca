package io.batchyard.execution.runner;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.intOrNull;
import static io.batchyard.persistence.Columns.longOrNull;

import io.batchyard.execution.SqlRepository;
import io.batchyard.execution.bucket.BucketRepository;
import io.batchyard.execution.clock.ServiceClock;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

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
                params("p", pid).and("enabled", job.enabled()).and("bucket", job.bucket()).and("batch", job.batch())
                        .and("exact", job.exactMatch()).and("maxBatch", job.maxBatchSize()).and("retry", job.retryFailed())
                        .and("cv", job.context().value()).and("cf", job.context().file()).and("cs", job.context().script())
                        .and("conc", job.stepConcurrency()).and("timeout", job.timeoutSeconds())
                        .and("hi", job.hooks().onInit()).and("hs", job.hooks().onSuccess()).and("he", job.hooks().onError())
                        .and("attempts", job.retry().maxAttempts()).and("backoff", job.retry().backoffSeconds())
                        .and("maxBackoff", job.retry().maxBackoffSeconds()))
                .chain(() -> update("DELETE FROM runner_dependency WHERE process_id = :p", params("p", pid)));
        int seq = 1;
        for (RunnerJob.Dependency d : job.dependencies()) {
            int s = seq++;
            saved = saved.chain(() -> update("""
                    INSERT INTO runner_dependency (process_id, seq, dep_process_id, dep_script)
                    VALUES (:p, :s, CAST(:d AS bigint), CAST(:script AS text))""",
                    params("p", pid).and("s", s).and("d", d.processId()).and("script", d.script())));
        }
        if (job.schedule() == null) {
            return saved.chain(() -> update("DELETE FROM runner_schedule WHERE process_id = :p", params("p", pid)))
                    .replaceWithVoid();
        }
        // A changed schedule starts counting from now: it must not fire for the past it never had.
        return saved.chain(() -> update("""
                INSERT INTO runner_schedule (process_id, cron, time_zone, last_fired_at)
                VALUES (:p, :cron, :tz, CAST(:now AS timestamptz))
                ON CONFLICT (process_id) DO UPDATE SET cron = EXCLUDED.cron, time_zone = EXCLUDED.time_zone,
                    last_fired_at = CASE WHEN runner_schedule.cron = EXCLUDED.cron
                                          AND runner_schedule.time_zone = EXCLUDED.time_zone
                                         THEN runner_schedule.last_fired_at ELSE CAST(:now AS timestamptz) END""",
                params("p", pid).and("cron", job.schedule().cron()).and("tz", job.schedule().timeZone())
                        .and("now", clock.now())))
                .replaceWithVoid();
    }

    public Uni<Optional<RunnerJob>> find(long processId) {
        return row("""
                SELECT process_id, enabled, bucket, is_batch, is_exact_match, max_batch_size, retry_failed, context_value,
                  context_file, context_script, step_concurrency, timeout_seconds, on_init, on_success, on_error,
                  max_attempts, retry_backoff_seconds, retry_max_backoff_seconds
                FROM runner_job WHERE process_id = :p""", params("p", processId), RunnerJobRepository::job)
                .chain(base -> base.isEmpty() ? Uni.createFrom().item(base) : withDetails(base.get()).map(Optional::of));
    }

    public Uni<List<Long>> enabledWithWork() {
        return values("""
                SELECT j.process_id FROM runner_job j WHERE j.enabled AND (j.bucket IS NOT NULL OR EXISTS (
                    SELECT 1 FROM bucket_status b WHERE b.process_id = j.process_id AND""" + " "
                + BucketRepository.eligibleRow("j.retry_failed", "j.max_attempts") + ")) ORDER BY j.process_id",
                Long.class, params("now", clock.now()));
    }

    public Uni<Boolean> delete(long processId) {
        return update("DELETE FROM runner_job WHERE process_id = :p", params("p", processId)).map(deleted -> deleted > 0);
    }

    private Uni<RunnerJob> withDetails(RunnerJob job) {
        return rows("SELECT dep_process_id, dep_script FROM runner_dependency WHERE process_id = :p ORDER BY seq",
                params("p", job.processId()), r -> new RunnerJob.Dependency(longOrNull(r[0]), (String) r[1]))
                .chain(deps -> row("SELECT cron, time_zone FROM runner_schedule WHERE process_id = :p",
                        params("p", job.processId()), r -> new RunnerJob.Schedule((String) r[0], (String) r[1]))
                        .map(schedule -> new RunnerJob(job.processId(), job.enabled(), job.bucket(), job.batch(),
                                job.exactMatch(), job.maxBatchSize(), job.retryFailed(), job.retry(), job.context(),
                                job.stepConcurrency(), job.timeoutSeconds(), job.hooks(), deps, schedule.orElse(null))));
    }

    private static RunnerJob job(Object[] r) {
        return new RunnerJob(longOrNull(r[0]), (Boolean) r[1], (String) r[2], (Boolean) r[3], (Boolean) r[4],
                intOrNull(r[5]), (Boolean) r[6],
                new RunnerJob.Retry(intOrNull(r[15]), intOrNull(r[16]), intOrNull(r[17])), new RunnerJob.Context((String) r[7], (String) r[8], (String) r[9]),
                intOrNull(r[10]), intOrNull(r[11]), new RunnerJob.Hooks((String) r[12], (String) r[13], (String) r[14]),
                List.of(), null);
    }
}
