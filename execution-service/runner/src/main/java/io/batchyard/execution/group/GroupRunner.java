package io.batchyard.execution.group;

import io.batchyard.persistence.Blocking;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.runner.GroupJobs;
import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.RunnerConfig;
import io.batchyard.execution.runner.RunnerJob;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The runner's view of a group's jobs: blocking calls on the runner's threads around {@link GroupService}. */
@ApplicationScoped
public class GroupRunner implements GroupJobs {

    private final GroupService service;
    private final BucketSourceRepository sql;
    private final RunnerConfig config;
    private final MeterRegistry meters;
    private final ServiceClock clock;

    public GroupRunner(GroupService service, BucketSourceRepository sql, RunnerConfig config, MeterRegistry meters,
                       ServiceClock clock) {
        this.service = service;
        this.sql = sql;
        this.config = config;
        this.meters = meters;
        this.clock = clock;
    }

    @Override
    public Map<Long, JobSettings> jobsOf(long parentId) {
        Map<Long, JobSettings> jobs = new LinkedHashMap<>();
        Blocking.await(() -> service.jobsOf(parentId)).forEach(j -> jobs.put(j.stepId(), j));
        return jobs;
    }

    @Override
    public JobRun claim(RunnerJob parent, JobSettings job, List<String> runBuckets) {
        JobRun run = decide(parent, job, runBuckets);
        meters.counter("batchyard_runner_group_jobs_total", "outcome", run.run() ? "run" : "skipped").increment();
        return run;
    }

    private JobRun decide(RunnerJob parent, JobSettings job, List<String> runBuckets) {
        if (!job.enabled()) {
            return JobRun.skip(job.stepId(), "job " + job.stepId() + " is disabled");
        }
        List<String> candidates;
        switch (job.bucketSource()) {
            case RULE -> candidates = Blocking.await(() -> service.currentOfRule(parent, job, now()));
            case SQL -> {
                try {
                    candidates = Blocking.await(() -> sql.keys(job.bucketSql()));
                } catch (RuntimeException e) {
                    // older buckets of its ledger could still run, but a broken source is what the operator must see
                    return JobRun.skip(job.stepId(), "bucket query of job " + job.stepId() + " failed: " + e.getMessage());
                }
            }
            default -> candidates = runBuckets;
        }
        return Blocking.await(() -> service.claim(parent, job, candidates));
    }

    @Override
    public void finish(JobRun run, long instanceExecId, boolean ok, String message) {
        Blocking.await(() -> service.finish(run.stepId(), run.buckets(), instanceExecId, ok, message));
    }

    /** The service clock, as every other bucket period reads it, so a moved clock moves a job's own rule too. */
    private LocalDateTime now() {
        return clock.localNow(ZoneId.of(config.timeZone()));
    }
}
