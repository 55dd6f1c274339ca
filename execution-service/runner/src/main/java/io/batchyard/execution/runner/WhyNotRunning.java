package io.batchyard.execution.runner;

import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.persistence.InOrder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Answers "why is this job not running?" from the same rules the launcher applies, without changing anything:
 * the parent as a whole (unknown, not stand-alone, disabled), then the bucket (absent, done, failed, waiting behind
 * an older one, not the current period), then the lease and the dependencies. Runs in the caller's session.
 */
@ApplicationScoped
public class WhyNotRunning {

    /**
     * The answer: whether a cycle now would run the bucket (or anything), every reason against, and where and as whom
     * this service's steps run ({@code launcher}: the launcher's name and, for the local one, the OS user), and the
     * buckets that wait for their data ({@code waiting}, oldest first, at most ten).
     */
    public record Explanation(long processId, String bucket, boolean wouldRun, List<String> nextBuckets,
                              List<Planner.Reason> reasons, String launcher, List<WaitingBucket> waiting) {
    }

    private final Planner planner;
    private final RunnerJobRepository jobs;
    private final BucketService ledger;
    private final Instance<MoreReasons> more;

    private final ServiceClock clock;
    private final StepLaunchers launchers;

    public WhyNotRunning(Planner planner, RunnerJobRepository jobs, BucketService ledger, Instance<MoreReasons> more,
                         ServiceClock clock, StepLaunchers launchers) {
        this.clock = clock;
        this.launchers = launchers;
        this.planner = planner;
        this.jobs = jobs;
        this.ledger = ledger;
        this.more = more;
    }

    public Uni<Explanation> explain(long processId, String bucket, LocalDateTime now) {
        return InOrder.map(more, source -> source.findings(processId)).chain(found -> {
            List<Planner.Reason> extra = found.stream().flatMap(f -> f.reasons().stream()).toList();
            List<WaitingBucket> waits = found.stream().flatMap(f -> f.waiting().stream()).toList();
            return explain(processId, bucket, now, extra, waits);
        });
    }

    private Uni<Explanation> explain(long processId, String bucket, LocalDateTime now, List<Planner.Reason> extra,
                                     List<WaitingBucket> waits) {
        return planner.plan(processId, now, false).chain(plan -> {
            List<Planner.Reason> reasons = new ArrayList<>(extra);
            reasons.addAll(plan.reasons());
            if (bucket == null) {
                return Uni.createFrom().item(new Explanation(processId, null, plan.runnable(), plan.buckets(), reasons,
                        launchers.describe(), waits));
            }
            return jobs.find(processId).chain(job -> ledger.find(processId, bucket)
                    .chain(row -> explain(processId, bucket, plan, job, row, reasons, waits)));
        });
    }

    /**
     * The answer about a process this service has never heard of, whatever it knows of {@code processId}: what a
     * caller who may not read the process is told, so that the answer says nothing of it.
     */
    public Uni<Explanation> unknown(long processId, String bucket) {
        List<Planner.Reason> reasons = new ArrayList<>(Planner.blockers(processId, Optional.empty(),
                Optional.empty()));
        if (bucket == null) {
            return Uni.createFrom().item(new Explanation(processId, null, false, List.of(), reasons, launchers.describe(),
                    List.of()));
        }
        return explain(processId, bucket, new Planner.Plan(processId, List.of(), null, reasons), Optional.empty(),
                Optional.empty(), reasons, List.of());
    }

    /**
     * Why a FAILED bucket does not run: the policy does not retry, it ran out of attempts, or it waits out its back-off;
     * nothing when the retry is due.
     */
    static Optional<Planner.Reason> failed(String bucket, Optional<RunnerJob> job, BucketStatus row, OffsetDateTime now) {
        String manual = "; retry it with POST .../buckets/" + bucket + "/retry";
        if (job.map(j -> !j.retryFailed()).orElse(true)) {
            return Optional.of(new Planner.Reason("BUCKET_FAILED", "bucket " + bucket + " failed (" + row.message() + ")"
                    + manual));
        }
        int max = job.get().retry().maxAttempts();
        if (row.attempts() >= max) {
            return Optional.of(new Planner.Reason("OUT_OF_ATTEMPTS", "bucket " + bucket + " failed " + row.attempts()
                    + " time(s), the policy's limit of " + max + " (last: " + row.message() + ")" + manual));
        }
        if (row.nextAttemptAt() != null && row.nextAttemptAt().isAfter(now)) {
            return Optional.of(new Planner.Reason("RETRY_BACKOFF", "bucket " + bucket + " failed (attempt "
                    + row.attempts() + " of " + max + ": " + row.message() + "); next attempt at " + row.nextAttemptAt()));
        }
        return Optional.empty();
    }

    private Uni<Explanation> explain(long processId, String bucket, Planner.Plan plan, Optional<RunnerJob> job,
                                     Optional<BucketStatus> row, List<Planner.Reason> reasons,
                                     List<WaitingBucket> waiting) {
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
                case FAILED -> failed(bucket, job, row.get(), clock.now()).ifPresent(reasons::add);
                case INIT -> { }
            }
        }
        boolean selected = plan.buckets().contains(bucket);
        if (!selected && plan.runnable() && row.map(r -> r.status() == BucketStatus.State.INIT).orElse(false)) {
            reasons.add(new Planner.Reason("WAITING_FOR_OLDER", "oldest first: this cycle runs " + plan.buckets()));
        }
        Uni<List<Planner.Reason>> unmet = job.isPresent() && row.map(r -> r.status() != BucketStatus.State.COMPLETE)
                .orElse(current) ? planner.unmetDependencies(job.get(), bucket) : Uni.createFrom().item(List.of());
        return unmet.map(more -> {
            reasons.addAll(more.stream().filter(r -> !reasons.contains(r)).toList());
            return new Explanation(processId, bucket, selected, plan.buckets(), reasons, launchers.describe(),
                    waiting.stream().filter(w -> w.bucket().equals(bucket)).toList());
        });
    }
}
