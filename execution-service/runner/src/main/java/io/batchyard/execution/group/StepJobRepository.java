package io.batchyard.execution.group;

import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.persistence.InOrder;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/** runner_step_job and runner_step_dependency: the settings of a group's jobs; joins the caller's transaction. */
@ApplicationScoped
public class StepJobRepository extends SqlRepository {

    private static final String JOB = """
            SELECT step_id, parent_id, enabled, bucket_source, bucket, bucket_sql, own_dependencies, on_init, on_success,
              on_error FROM runner_step_job""";

    public Uni<Void> save(JobSettings job) {
        long sid = job.stepId();
        Uni<Integer> saved = update("""
                INSERT INTO runner_step_job (step_id, parent_id, enabled, bucket_source, bucket, bucket_sql,
                    own_dependencies, on_init, on_success, on_error)
                VALUES (:s, :p, :enabled, :source, CAST(:bucket AS text), CAST(:sql AS text), :own,
                    CAST(:hi AS text), CAST(:hs AS text), CAST(:he AS text))
                ON CONFLICT (step_id) DO UPDATE SET parent_id = EXCLUDED.parent_id, enabled = EXCLUDED.enabled,
                    bucket_source = EXCLUDED.bucket_source, bucket = EXCLUDED.bucket, bucket_sql = EXCLUDED.bucket_sql,
                    own_dependencies = EXCLUDED.own_dependencies, on_init = EXCLUDED.on_init,
                    on_success = EXCLUDED.on_success, on_error = EXCLUDED.on_error, updated_at = now()""",
                Params.of("s", sid).and("p", job.parentId()).and("enabled", job.enabled())
                        .and("source", job.bucketSource().name().toLowerCase(Locale.ROOT)).and("bucket", job.bucket())
                        .and("sql", job.bucketSql()).and("own", job.dependencies() != null)
                        .and("hi", job.hooks().onInit()).and("hs", job.hooks().onSuccess()).and("he", job.hooks().onError()))
                .chain(() -> update("DELETE FROM runner_step_dependency WHERE step_id = :s", Params.of("s", sid)));
        List<RunnerJob.Dependency> deps = job.dependencies() == null ? List.of() : job.dependencies();
        return saved.chain(() -> InOrder.each(IntStream.range(0, deps.size()).boxed().toList(), i -> update("""
                INSERT INTO runner_step_dependency (step_id, seq, dep_process_id, dep_script)
                VALUES (:s, :n, CAST(:d AS bigint), CAST(:script AS text))""",
                Params.of("s", sid).and("n", i + 1).and("d", deps.get(i).processId())
                        .and("script", deps.get(i).script()))));
    }

    public Uni<Optional<JobSettings>> find(long stepId) {
        return first(JOB + " WHERE step_id = :s", Params.of("s", stepId), StepJobRepository::job)
                .chain(job -> job.isEmpty() ? Uni.createFrom().item(job)
                        : withDependencies(List.of(job.get())).map(jobs -> Optional.of(jobs.get(0))));
    }

    public Uni<List<JobSettings>> ofParent(long parentId) {
        return list(JOB + " WHERE parent_id = :p ORDER BY step_id", Params.of("p", parentId), StepJobRepository::job)
                .chain(this::withDependencies);
    }

    /** The jobs with their own dependencies read; a job without own dependencies keeps null (the parent's). */
    private Uni<List<JobSettings>> withDependencies(List<JobSettings> stored) {
        return InOrder.map(stored, job -> (job.dependencies() != null
                ? list("SELECT dep_process_id, dep_script FROM runner_step_dependency WHERE step_id = :s ORDER BY seq",
                        Params.of("s", job.stepId()), StepJobRepository::dependency)
                : Uni.createFrom().item((List<RunnerJob.Dependency>) null))
                .map(deps -> new JobSettings(job.stepId(), job.parentId(), job.enabled(), job.bucketSource(),
                        job.bucket(), job.bucketSql(), deps, job.hooks())));
    }

    /** A runner_step_job row; its dependencies are read separately: an empty list until then when it has its own. */
    private static JobSettings job(Row r) {
        return new JobSettings(r.getLong("step_id"), r.getLong("parent_id"), r.getBoolean("enabled"),
                JobSettings.BucketSource.valueOf(r.getString("bucket_source").toUpperCase(Locale.ROOT)),
                r.getString("bucket"), r.getString("bucket_sql"),
                r.getBoolean("own_dependencies") ? List.of() : null,
                new RunnerJob.Hooks(r.getString("on_init"), r.getString("on_success"), r.getString("on_error")));
    }

    private static RunnerJob.Dependency dependency(Row r) {
        return new RunnerJob.Dependency(r.getLongOrNull("dep_process_id"), r.getString("dep_script"));
    }
}
