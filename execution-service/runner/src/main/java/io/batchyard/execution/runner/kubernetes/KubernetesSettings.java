package io.batchyard.execution.runner.kubernetes;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code batchyard.runner.kubernetes.*}: where and how the {@code kubernetes} launcher runs a step's command. */
@ConfigMapping(prefix = "batchyard.runner.kubernetes")
public interface KubernetesSettings {

    /** The namespace every step's Job is created in; the service account of this service needs Jobs and Pods there. */
    @WithDefault("batchyard-jobs")
    String namespace();

    /** The image of a step whose property {@code kubernetes/image} is not set. */
    @WithDefault("debian:bookworm-slim")
    String image();

    /** The service account a step's pod runs as (its token is not mounted). */
    @WithDefault("batchyard-job")
    String serviceAccount();

    /** CPU of a step without {@code kubernetes/cpu}, as request and limit. */
    @WithDefault("500m")
    String cpu();

    /** Memory of a step without {@code kubernetes/memory}, as request and limit. */
    @WithDefault("512Mi")
    String memory();

    /** How often the launcher reads a running Job, its pod and the pod's new log lines. */
    @WithDefault("2s")
    Duration poll();

    /** How long a step's image may fail to pull ({@code ErrImagePull}, {@code ImagePullBackOff}) before the step fails. */
    @WithDefault("2m")
    Duration imagePullGrace();

    /**
     * {@code ttlSecondsAfterFinished} of each Job: the cluster removes a finished Job the launcher could not delete
     * itself (it was stopped first).
     */
    @WithDefault("3600")
    int ttlSecondsAfterFinished();
}
