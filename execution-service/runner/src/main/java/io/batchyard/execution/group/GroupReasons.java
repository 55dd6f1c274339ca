package io.batchyard.execution.group;

import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.MoreReasons;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.RunPolicyService;
import io.batchyard.persistence.InOrder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code GET /why/{pid}} says about a group's jobs: a disabled job (its runs skip it), and a job whose oldest
 * waiting bucket of its own ledger has an unmet dependency. Runs in the caller's session; changes nothing.
 */
@ApplicationScoped
public class GroupReasons implements MoreReasons {

    private final StepJobRepository jobs;
    private final RunPolicyService policies;
    private final BucketService ledger;
    private final Planner planner;

    public GroupReasons(StepJobRepository jobs, RunPolicyService policies, BucketService ledger, Planner planner) {
        this.jobs = jobs;
        this.policies = policies;
        this.ledger = ledger;
        this.planner = planner;
    }

    @Override
    public Uni<List<Planner.Reason>> reasons(long processId) {
        return policies.job(processId).chain(parent -> parent.isEmpty() ? Uni.createFrom().item(List.of())
                : jobs.ofParent(processId).chain(all -> reasons(parent.get(), all)));
    }

    private Uni<List<Planner.Reason>> reasons(RunnerJob parent, List<JobSettings> all) {
        List<Planner.Reason> reasons = new ArrayList<>();
        all.stream().filter(job -> !job.enabled()).forEach(job -> reasons.add(new Planner.Reason("JOB_DISABLED",
                "job (step) " + job.stepId() + " of group " + parent.processId() + " is disabled: runs skip it")));
        return InOrder.each(all.stream().filter(JobSettings::enabled).toList(), job -> ledger.eligible(job.stepId(),
                parent.retryFailed(), parent.retry().maxAttempts()).chain(eligible -> {
                    List<String> next = GroupRules.select(eligible, parent);
                    return next.isEmpty() ? Uni.createFrom().voidItem()
                            : planner.unmetDependencies(job.asJob(parent), next.get(0)).invoke(unmet ->
                                    unmet.forEach(r -> reasons.add(new Planner.Reason("JOB_UNMET_DEPENDENCY", "job "
                                            + job.stepId() + ", bucket " + next.get(0) + ": " + r.message()))))
                                    .replaceWithVoid();
                })).map(done -> reasons);
    }
}
