package io.batchyard.execution.runner.kubernetes;

import io.batchyard.execution.runner.StepLaunch;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The Job of one step command: its name and labels (derived from the launch's work key, so that a later service finds
 * it again), and a pod that may do nothing but run the command (no token, no volume, Pod Security {@code restricted}).
 * Pure: no client, no clock.
 */
final class JobSpecs {

    static final String GROUP = "kubernetes";
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    static final String PROCESS = "batchyard.io/process";
    static final String STEP = "batchyard.io/step";
    static final String WORK = "batchyard.io/work";
    static final String WORK_KEY = "batchyard.io/work-key";
    static final String STEP_INSTANCE = "batchyard.io/step-instance-exec-id";
    static final String CONTAINER = "step";

    /** A Kubernetes quantity as the API accepts it: a decimal number, then a binary or decimal suffix or exponent. */
    private static final Pattern QUANTITY =
            Pattern.compile("(\\d+(\\.\\d*)?|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");
    /** An image reference: registry/path:tag@digest, without blanks or anything a shell or YAML would read. */
    private static final Pattern IMAGE = Pattern.compile("[a-z0-9][a-zA-Z0-9._/:@-]{0,254}");

    /** A property value the cluster would refuse: the step fails unlaunched with this reason. */
    static final class Invalid extends IllegalArgumentException {
        Invalid(String message) {
            super(message);
        }
    }

    /** What a Job needs besides the launch: the launcher's settings. */
    record Defaults(String image, String serviceAccount, String cpu, String memory, int ttlSecondsAfterFinished) {
    }

    private JobSpecs() {
    }

    /** The label value naming one piece of work: the same work key, the same value, whatever run does it. */
    static String workHash(String workKey) {
        return sha256(workKey).substring(0, 40);
    }

    /**
     * The Job's name: {@code by-}, a stable hash of the work key, then the step's instance exec id, so that two runs of
     * the same work never collide on a name; at most 39 characters, within DNS-1123's 63.
     */
    static String name(String workKey, long stepInstanceExecId) {
        return "by-" + sha256(workKey).substring(0, 16) + "-" + stepInstanceExecId;
    }

    static String image(StepLaunch launch, Defaults d) {
        String image = launch.step().property(GROUP, "image").map(String::strip).orElse(d.image());
        if (!IMAGE.matcher(image).matches()) {
            throw new Invalid("property kubernetes/image of step " + launch.stepId() + " is not an image reference: '"
                    + image + "'");
        }
        return image;
    }

    /** A positive quantity from the step's property {@code key}, else the default. */
    static String quantity(StepLaunch launch, String key, String fallback) {
        String value = launch.step().property(GROUP, key).map(String::strip).orElse(fallback);
        if (!QUANTITY.matcher(value).matches() || new Quantity(value).getNumericalAmount().signum() <= 0) {
            throw new Invalid("property kubernetes/" + key + " of step " + launch.stepId()
                    + " must be a positive Kubernetes quantity (e.g. 500m, 2, 512Mi, 1Gi), got '" + value + "'");
        }
        return value;
    }

    /** The command as the step names it: the script's words, then the arguments; run as is, never through a shell. */
    static List<String> command(StepLaunch launch) {
        List<String> command = new ArrayList<>(Arrays.asList(launch.script().strip().split("\\s+")));
        command.addAll(launch.args());
        return command;
    }

    static Map<String, String> labels(StepLaunch launch) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, "batchyard");
        labels.put(PROCESS, Long.toString(launch.processId()));
        labels.put(STEP, Long.toString(launch.stepId()));
        labels.put(WORK, workHash(launch.workKey()));
        return labels;
    }

    /** @throws Invalid when a step property holds a value the cluster would refuse */
    static Job job(StepLaunch launch, Defaults d) {
        String image = image(launch, d);
        Map<String, Quantity> resources = Map.of(
                "cpu", new Quantity(quantity(launch, "cpu", d.cpu())),
                "memory", new Quantity(quantity(launch, "memory", d.memory())));
        List<EnvVar> env = launch.env().entrySet().stream().map(e -> new EnvVar(e.getKey(), e.getValue(), null)).toList();
        Map<String, String> labels = labels(launch);
        return new JobBuilder()
                .withNewMetadata()
                    .withName(name(launch.workKey(), launch.stepInstanceExecId()))
                    .withLabels(labels)
                    .addToAnnotations(WORK_KEY, launch.workKey())
                    .addToAnnotations(STEP_INSTANCE, Long.toString(launch.stepInstanceExecId()))
                .endMetadata()
                .withNewSpec()
                    // one attempt: retries are the runner's (run policy), not the Job controller's
                    .withBackoffLimit(0)
                    .withActiveDeadlineSeconds(Math.max(1L, launch.timeout().toSeconds()))
                    .withTtlSecondsAfterFinished(d.ttlSecondsAfterFinished())
                    .withNewTemplate()
                        .withNewMetadata().withLabels(labels).endMetadata()
                        .withNewSpec()
                            .withRestartPolicy("Never")
                            .withServiceAccountName(d.serviceAccount())
                            .withAutomountServiceAccountToken(false)
                            .withNewSecurityContext()
                                .withRunAsNonRoot(true)
                                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                            .endSecurityContext()
                            .addNewContainer()
                                .withName(CONTAINER)
                                .withImage(image)
                                .withCommand(command(launch))
                                .withEnv(env)
                                .withNewResources().withRequests(resources).withLimits(resources).endResources()
                                .withNewSecurityContext()
                                    .withRunAsNonRoot(true)
                                    .withAllowPrivilegeEscalation(false)
                                    .withNewCapabilities().withDrop("ALL").endCapabilities()
                                    .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                                .endSecurityContext()
                            .endContainer()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
