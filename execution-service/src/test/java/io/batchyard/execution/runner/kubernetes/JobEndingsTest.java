package io.batchyard.execution.runner.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import org.junit.jupiter.api.Test;

class JobEndingsTest {

    @Test
    void aRunningJobHasNoEnding() {
        assertThat(JobEndings.of("j", job(null, null), running(), true)).isEmpty();
        assertThat(JobEndings.of("j", job(null, null), null, false)).as("no pod yet").isEmpty();
    }

    @Test
    void theContainersExitCodeIsTheSteps() {
        var ending = JobEndings.of("j", job(null, null), exited(3, null), true).orElseThrow();
        assertThat(ending.kind()).isEqualTo(JobEndings.Kind.EXITED);
        assertThat(ending.exitCode()).isEqualTo(3);
        assertThat(JobEndings.of("j", job("Complete", null), null, false).orElseThrow().exitCode()).isZero();
    }

    @Test
    void theDeadlineIsATimeoutEvenWhenTheKilledContainerShowsAnExitCode() {
        var ending = JobEndings.of("j", job("Failed", "DeadlineExceeded"), exited(137, "2026-01-01T00:00:00Z"), true)
                .orElseThrow();
        assertThat(ending.kind()).isEqualTo(JobEndings.Kind.DEADLINE);
        assertThat(ending.reason()).contains("deadline of 60 s");
        assertThat(JobEndings.of("j", job(null, null), exited(137, "2026-01-01T00:00:00Z"), true))
                .as("a container killed while its pod is deleted waits for the Job's reason").isEmpty();
    }

    @Test
    void evictionAndDeletionAreLostWithTheirReason() {
        Pod evicted = new PodBuilder(running()).editStatus().withPhase("Failed").withReason("Evicted").withMessage("low on memory")
                .endStatus().build();
        var ending = JobEndings.of("j", job(null, null), evicted, true).orElseThrow();
        assertThat(ending.kind()).isEqualTo(JobEndings.Kind.LOST);
        assertThat(ending.reason()).isEqualTo("pod p of Job j was evicted (low on memory)");
        assertThat(JobEndings.of("j", null, null, true).orElseThrow().reason()).isEqualTo("Job j was deleted while the step ran");
        assertThat(JobEndings.of("j", job(null, null), null, true).orElseThrow().reason()).contains("pod of Job j was deleted");
    }

    @Test
    void pullFailuresAreRecognised() {
        Pod pulling = new PodBuilder(running()).editStatus().withContainerStatuses(new ContainerStatusBuilder().withName("step")
                .withNewState().withNewWaiting().withReason("ErrImagePull").withMessage("not found").endWaiting().endState()
                .build()).endStatus().build();
        assertThat(JobEndings.pullFailure(pulling)).contains("ErrImagePull: not found");
        assertThat(JobEndings.pullFailure(running())).isEmpty();
        assertThat(JobEndings.started(pulling)).isFalse();
        assertThat(JobEndings.started(running())).isTrue();
    }

    @Test
    void onlyAFailedJobOfTheSameWorkIsReplaced() {
        assertThat(JobEndings.reusable(job(null, null))).isTrue();
        assertThat(JobEndings.reusable(job("Complete", null))).isTrue();
        assertThat(JobEndings.reusable(job("Failed", "BackoffLimitExceeded"))).isFalse();
    }

    static Job job(String condition, String reason) {
        JobBuilder b = new JobBuilder().withNewMetadata().withName("j").endMetadata().withNewSpec()
                .withActiveDeadlineSeconds(60L).endSpec();
        if (condition != null) {
            b.withNewStatus().addToConditions(new JobConditionBuilder().withType(condition).withStatus("True")
                    .withReason(reason).build()).endStatus();
        }
        return b.build();
    }

    static Pod running() {
        return new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewStatus().withPhase("Running")
                .withContainerStatuses(new ContainerStatusBuilder().withName("step").withNewState().withNewRunning()
                        .endRunning().endState().build()).endStatus().build();
    }

    static Pod exited(int code, String deleting) {
        return new PodBuilder().withNewMetadata().withName("p").withDeletionTimestamp(deleting).endMetadata().withNewStatus()
                .withPhase(code == 0 ? "Succeeded" : "Failed").withContainerStatuses(new ContainerStatusBuilder()
                        .withName("step").withNewState().withNewTerminated().withExitCode(code).endTerminated().endState()
                        .build()).endStatus().build();
    }
}
