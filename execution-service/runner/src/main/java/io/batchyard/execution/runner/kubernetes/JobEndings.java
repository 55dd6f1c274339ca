package io.batchyard.execution.runner.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How a step's Job ended, read from the Job and its pod as the API shows them; empty while it runs. Pure: the launcher
 * reads, this decides.
 */
final class JobEndings {

    /** Waiting reasons of a container whose image the kubelet cannot get. */
    static final Set<String> PULL_FAILURES = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName");

    enum Kind {
        /** The container exited: {@code exitCode} is its own. */
        EXITED,
        /** The Job passed its {@code activeDeadlineSeconds}: the step's timeout. */
        DEADLINE,
        /** Ended from outside with no exit code: evicted, deleted, or failed by the Job controller. */
        LOST
    }

    record Ending(Kind kind, int exitCode, String reason) {
    }

    private JobEndings() {
    }

    /**
     * @param job    the Job as read now, or null when it is gone
     * @param pod    its pod as read now, or null when there is none (yet, or any more)
     * @param podSeen whether a pod of this Job was seen before: one gone now was deleted
     */
    static Optional<Ending> of(String jobName, Job job, Pod pod, boolean podSeen) {
        if (job == null) {
            return Optional.of(new Ending(Kind.LOST, -1, "Job " + jobName + " was deleted while the step ran"));
        }
        if (pod != null && pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase())
                && "Evicted".equals(pod.getStatus().getReason())) {
            return Optional.of(new Ending(Kind.LOST, -1, "pod " + pod.getMetadata().getName() + " of Job " + jobName
                    + " was evicted" + suffix(pod.getStatus().getMessage())));
        }
        Optional<JobCondition> failed = condition(job, "Failed");
        if (failed.isPresent() && "DeadlineExceeded".equals(failed.get().getReason())) {
            return Optional.of(new Ending(Kind.DEADLINE, -1, "Job " + jobName + " passed its deadline of "
                    + job.getSpec().getActiveDeadlineSeconds() + " s (activeDeadlineSeconds)"
                    + suffix(failed.get().getMessage())));
        }
        Optional<ContainerStateTerminated> terminated = terminated(pod);
        // a container killed while its pod is being deleted (the deadline, an eviction) waits for the Job to say why
        boolean deleting = pod != null && pod.getMetadata().getDeletionTimestamp() != null;
        if (terminated.isPresent() && (terminated.get().getExitCode() == 0 || !deleting || failed.isPresent())) {
            ContainerStateTerminated t = terminated.get();
            String why = t.getExitCode() == 0 ? "" : suffix(join(t.getReason(), t.getMessage()));
            return Optional.of(new Ending(Kind.EXITED, t.getExitCode(), "container exited with code " + t.getExitCode() + why));
        }
        if (condition(job, "Complete").isPresent()) {
            return Optional.of(new Ending(Kind.EXITED, 0, "Job " + jobName + " complete"));
        }
        if (failed.isPresent()) {
            return Optional.of(new Ending(Kind.LOST, -1, "Job " + jobName + " failed"
                    + suffix(join(failed.get().getReason(), failed.get().getMessage()))));
        }
        if (pod == null && podSeen) {
            return Optional.of(new Ending(Kind.LOST, -1, "the pod of Job " + jobName + " was deleted while the step ran"));
        }
        return Optional.empty();
    }

    /** The reason and message of a container that waits for an image the kubelet cannot pull, or empty. */
    static Optional<String> pullFailure(Pod pod) {
        return container(pod).map(ContainerStatus::getState).map(s -> s.getWaiting())
                .filter(w -> PULL_FAILURES.contains(w.getReason()))
                .map(w -> join(w.getReason(), w.getMessage()));
    }

    /** Whether the step's container runs or ran, so that its log can be read. */
    static boolean started(Pod pod) {
        return container(pod).map(ContainerStatus::getState)
                .map(s -> s.getRunning() != null || s.getTerminated() != null).orElse(false);
    }

    /** Whether a Job found for the same work still runs or succeeded (so it is the work), not failed. */
    static boolean reusable(Job job) {
        return condition(job, "Failed").isEmpty();
    }

    static Optional<JobCondition> condition(Job job, String type) {
        if (job.getStatus() == null || job.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return job.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus())).findFirst();
    }

    private static Optional<ContainerStateTerminated> terminated(Pod pod) {
        return container(pod).map(ContainerStatus::getState).map(s -> s.getTerminated());
    }

    private static Optional<ContainerStatus> container(Pod pod) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        List<ContainerStatus> all = pod.getStatus().getContainerStatuses();
        return all.stream().filter(c -> JobSpecs.CONTAINER.equals(c.getName())).findFirst()
                .or(() -> all.stream().findFirst());
    }

    private static String join(String reason, String message) {
        if (reason == null || reason.isBlank()) {
            return message == null ? "" : message;
        }
        return message == null || message.isBlank() ? reason : reason + ": " + message;
    }

    private static String suffix(String text) {
        return text == null || text.isBlank() ? "" : " (" + text + ")";
    }
}
