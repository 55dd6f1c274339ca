package io.batchyard.execution.runner;

import io.batchyard.execution.bucket.BucketLedger;
import io.batchyard.execution.bucket.BucketStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Answers "why is this job not running?" from the same rules the launcher applies, without changing anything:
 * the parent as a whole (unknown, not stand-alone, disabled), then the bucket (absent, done, failed, waiting behind
 * an older one, not the current period), then the lease and the dependencies.
 */
@ApplicationScoped
public class WhyNotRunning {

    /** The answer: whether a cycle now would run the bucket (or anything), and every reason against. */
    public record Explanation(long processId, String bucket, boolean wouldRun, List<String> nextBuckets,
                              List<Planner.Reason> reasons) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    Planner planner;

    @Inject
    RunnerJobs jobs;

    @Inject
    BucketLedger ledger;

    public Explanation explain(long processId, String bucket, LocalDateTime now) {
        return jdbi.withHandle(h -> {
            Planner.Plan plan = planner.plan(h, processId, now, false);
            List<Planner.Reason> reasons = new ArrayList<>(plan.reasons());
            if (bucket == null) {
                return new Explanation(processId, null, plan.runnable(), plan.buckets(), reasons);
            }
            Optional<RunnerJob> job = jobs.find(h, processId);
            Optional<BucketStatus> row = ledger.find(h, processId, bucket);
            boolean current = bucket.equals(plan.currentPeriod());
            if (row.isEmpty() && !current) {
                reasons.add(new Planner.Reason("NO_SUCH_BUCKET", "bucket " + bucket + " of process " + processId
                        + " was never recorded: add it (POST .../buckets or backfill) or wait for the schedule"));
            } else if (row.isPresent()) {
                switch (row.get().status()) {
                    case COMPLETE -> reasons.add(new Planner.Reason("BUCKET_COMPLETE", "bucket " + bucket
                            + " completed in run " + row.get().instanceExecId()));
                    case RUNNING -> reasons.add(new Planner.Reason("BUCKET_RUNNING", "bucket " + bucket
                            + " is running in run " + row.get().instanceExecId()));
                    case FAILED -> {
                        if (job.map(j -> !j.retryFailed()).orElse(true)) {
                            reasons.add(new Planner.Reason("BUCKET_FAILED", "bucket " + bucket + " failed ("
                                    + row.get().message() + "); retry it with POST .../buckets/" + bucket + "/retry"));
                        }
                    }
                    case INIT -> { }
                }
            }
            boolean selected = plan.buckets().contains(bucket);
            if (!selected && plan.runnable() && row.map(r -> r.status() == BucketStatus.State.INIT).orElse(false)) {
                reasons.add(new Planner.Reason("WAITING_FOR_OLDER", "oldest first: this cycle runs " + plan.buckets()));
            }
            if (job.isPresent() && row.map(r -> r.status() != BucketStatus.State.COMPLETE).orElse(current)) {
                reasons.addAll(planner.unmetDependencies(h, job.get(), bucket).stream()
                        .filter(r -> !reasons.contains(r)).toList());
            }
            return new Explanation(processId, bucket, selected, plan.buckets(), reasons);
        });
    }
}
