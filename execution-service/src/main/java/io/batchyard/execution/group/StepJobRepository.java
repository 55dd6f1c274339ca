package io.batchyard.execution.group;

import static io.batchyard.persistence.Columns.longOrNull;

import io.batchyard.execution.SqlRepository;
import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.RunnerJob;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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
                params("s", sid).and("p", job.parentId()).and("enabled", job.enabled())
                        .and("source", job.bucketSource().name().toLowerCase(Locale.ROOT)).and("bucket", job.bucket())
                        .and("sql", job.bucketSql()).and("own", job.dependencies() != null)
                        .and("hi", job.hooks().onInit()).and("hs", job.hooks().onSuccess()).and("he", job.hooks().onError()))
                .chain(() -> update("DELETE FROM runner_step_dependency WHERE step_id = :s", params("s", sid)));
        int seq = 1;
        for (RunnerJob.Dependency d : job.dependencies() == null ? List.<RunnerJob.Dependency>of() : job.dependencies()) {
            int n = seq++;
            saved = saved.chain(() -> update("""
                    INSERT INTO runner_step_dependency (step_id, seq, dep_process_id, dep_script)
                    VALUES (:s, :n, CAST(:d AS bigint), CAST(:script AS text))""",
                    params("s", sid).and("n", n).and("d", d.processId()).and("script", d.script())));
        }
        return saved.replaceWithVoid();
    }

    public Uni<Optional<JobSettings>> find(long stepId) {
        return rows(JOB + " WHERE step_id = :s", params("s", stepId)).chain(rows -> rows.isEmpty()
                ? Uni.createFrom().item(Optional.<JobSettings>empty())
                : withDependencies(List.<Object[]>of(rows.get(0))).map(jobs -> Optional.of(jobs.get(0))));
    }

    public Uni<List<JobSettings>> ofParent(long parentId) {
        return rows(JOB + " WHERE parent_id = :p ORDER BY step_id", params("p", parentId)).chain(this::withDependencies);
    }

    private Uni<List<JobSettings>> withDependencies(List<Object[]> rows) {
        List<JobSettings> jobs = new ArrayList<>();
        Uni<Void> each = Uni.createFrom().voidItem();
        for (Object[] r : rows) {
            long sid = longOrNull(r[0]);
            each = each.chain(() -> (Boolean) r[6]
                    ? rows("SELECT dep_process_id, dep_script FROM runner_step_dependency WHERE step_id = :s ORDER BY seq",
                            params("s", sid), d -> new RunnerJob.Dependency(longOrNull(d[0]), (String) d[1]))
                    : Uni.createFrom().item((List<RunnerJob.Dependency>) null))
                    .invoke(deps -> jobs.add(new JobSettings(sid, longOrNull(r[1]), (Boolean) r[2],
                            JobSettings.BucketSource.valueOf(((String) r[3]).toUpperCase(Locale.ROOT)), (String) r[4],
                            (String) r[5], deps, new RunnerJob.Hooks((String) r[7], (String) r[8], (String) r[9]))))
                    .replaceWithVoid();
        }
        return each.map(done -> jobs);
    }
}
