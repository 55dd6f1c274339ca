package io.batchyard.execution.runner;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** runner_job, runner_dependency and runner_schedule. */
@ApplicationScoped
public class RunnerJobs {

    public void save(Handle tx, RunnerJob job) {
        tx.createUpdate("""
                INSERT INTO runner_job (process_id, enabled, bucket, is_batch, is_exact_match, max_batch_size, retry_failed,
                    context_value, context_file, context_script, step_concurrency, timeout_seconds, on_init, on_success, on_error)
                VALUES (:p, :enabled, :bucket, :batch, :exact, :maxBatch, :retry, :cv, :cf, :cs, :conc, :timeout, :hi, :hs, :he)
                ON CONFLICT (process_id) DO UPDATE SET enabled = :enabled, bucket = :bucket, is_batch = :batch,
                    is_exact_match = :exact, max_batch_size = :maxBatch, retry_failed = :retry, context_value = :cv,
                    context_file = :cf, context_script = :cs, step_concurrency = :conc, timeout_seconds = :timeout,
                    on_init = :hi, on_success = :hs, on_error = :he, updated_at = now()""")
                .bind("p", job.processId()).bind("enabled", job.enabled()).bind("bucket", job.bucket())
                .bind("batch", job.batch()).bind("exact", job.exactMatch()).bind("maxBatch", job.maxBatchSize())
                .bind("retry", job.retryFailed()).bind("cv", job.context().value()).bind("cf", job.context().file())
                .bind("cs", job.context().script()).bind("conc", job.stepConcurrency()).bind("timeout", job.timeoutSeconds())
                .bind("hi", job.hooks().onInit()).bind("hs", job.hooks().onSuccess()).bind("he", job.hooks().onError())
                .execute();
        tx.createUpdate("DELETE FROM runner_dependency WHERE process_id = :p").bind("p", job.processId()).execute();
        int seq = 1;
        for (RunnerJob.Dependency d : job.dependencies()) {
            tx.createUpdate("INSERT INTO runner_dependency (process_id, seq, dep_process_id, dep_script) VALUES (:p, :s, :d, :script)")
                    .bind("p", job.processId()).bind("s", seq++).bind("d", d.processId()).bind("script", d.script()).execute();
        }
        if (job.schedule() == null) {
            tx.createUpdate("DELETE FROM runner_schedule WHERE process_id = :p").bind("p", job.processId()).execute();
        } else {
            // A changed schedule starts counting from now: it must not fire for the past it never had.
            tx.createUpdate("""
                    INSERT INTO runner_schedule (process_id, cron, time_zone) VALUES (:p, :cron, :tz)
                    ON CONFLICT (process_id) DO UPDATE SET cron = :cron, time_zone = :tz,
                        last_fired_at = CASE WHEN runner_schedule.cron = :cron AND runner_schedule.time_zone = :tz
                                             THEN runner_schedule.last_fired_at ELSE now() END""")
                    .bind("p", job.processId()).bind("cron", job.schedule().cron()).bind("tz", job.schedule().timeZone())
                    .execute();
        }
    }

    public Optional<RunnerJob> find(Handle h, long processId) {
        Optional<RunnerJob> base = h.createQuery("SELECT * FROM runner_job WHERE process_id = :p").bind("p", processId)
                .map((rs, ctx) -> row(rs)).findOne();
        return base.map(job -> withDetails(h, job));
    }

    public List<Long> enabledWithWork(Handle h) {
        return h.createQuery("""
                SELECT j.process_id FROM runner_job j WHERE j.enabled AND (j.bucket IS NOT NULL OR EXISTS (
                    SELECT 1 FROM bucket_status b WHERE b.process_id = j.process_id
                      AND (b.status = 'INIT' OR (j.retry_failed AND b.status = 'FAILED'))))
                ORDER BY j.process_id""").mapTo(Long.class).list();
    }

    public boolean delete(Handle tx, long processId) {
        return tx.createUpdate("DELETE FROM runner_job WHERE process_id = :p").bind("p", processId).execute() > 0;
    }

    private RunnerJob withDetails(Handle h, RunnerJob job) {
        List<RunnerJob.Dependency> deps = h.createQuery(
                "SELECT dep_process_id, dep_script FROM runner_dependency WHERE process_id = :p ORDER BY seq")
                .bind("p", job.processId())
                .map((rs, ctx) -> new RunnerJob.Dependency((Long) rs.getObject("dep_process_id"), rs.getString("dep_script")))
                .list();
        RunnerJob.Schedule schedule = h.createQuery("SELECT cron, time_zone FROM runner_schedule WHERE process_id = :p")
                .bind("p", job.processId())
                .map((rs, ctx) -> new RunnerJob.Schedule(rs.getString("cron"), rs.getString("time_zone")))
                .findOne().orElse(null);
        return new RunnerJob(job.processId(), job.enabled(), job.bucket(), job.batch(), job.exactMatch(),
                job.maxBatchSize(), job.retryFailed(), job.context(), job.stepConcurrency(), job.timeoutSeconds(),
                job.hooks(), deps, schedule);
    }

    private static RunnerJob row(ResultSet rs) throws SQLException {
        return new RunnerJob(rs.getLong("process_id"), rs.getBoolean("enabled"), rs.getString("bucket"),
                rs.getBoolean("is_batch"), rs.getBoolean("is_exact_match"), (Integer) rs.getObject("max_batch_size"),
                rs.getBoolean("retry_failed"),
                new RunnerJob.Context(rs.getString("context_value"), rs.getString("context_file"), rs.getString("context_script")),
                rs.getInt("step_concurrency"), rs.getInt("timeout_seconds"),
                new RunnerJob.Hooks(rs.getString("on_init"), rs.getString("on_success"), rs.getString("on_error")),
                List.of(), null);
    }
}
