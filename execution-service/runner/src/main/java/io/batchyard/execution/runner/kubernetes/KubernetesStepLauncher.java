package io.batchyard.execution.runner.kubernetes;

import io.batchyard.execution.runner.CommandResult;
import io.batchyard.execution.runner.OsCommand;
import io.batchyard.execution.runner.RunnerDrain;
import io.batchyard.execution.runner.StepLaunch;
import io.batchyard.execution.runner.StepLauncher;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.ScalableResource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * {@code batchyard.runner.launcher=kubernetes}: each step command is a {@code batch/v1} Job of its own in
 * {@code batchyard.runner.kubernetes.namespace}, found again by its work label after a restart instead of started
 * twice. Only the step's command runs on the cluster: hooks and helper scripts (loop, bucket, context, dependency)
 * still run in this service, as the local launcher runs them. The client connects on the first launch only.
 */
@ApplicationScoped
public class KubernetesStepLauncher implements StepLauncher {

    private static final Logger LOG = Logger.getLogger(KubernetesStepLauncher.class);

    /** How long past the step's own deadline the launcher waits for a Job it cannot read before it gives it up. */
    static final Duration UNREACHABLE_SLACK = Duration.ofMinutes(2);

    /** Built at the first launch: a service that launches locally never makes a client, let alone connects. */
    private final Instance<KubernetesClient> client;
    private final KubernetesSettings settings;
    private final RunnerDrain drain;

    public KubernetesStepLauncher(Instance<KubernetesClient> client, KubernetesSettings settings, RunnerDrain drain) {
        this.client = client;
        this.settings = settings;
        this.drain = drain;
    }

    @Override
    public String name() {
        return KUBERNETES;
    }

    @Override
    public Optional<String> refusal() {
        // whether the namespace exists and the account may create Jobs there is the API's to say, at the first launch
        return Optional.empty();
    }

    /** A step's script is in its Job's image, not in this service's script directory. */
    @Override
    public boolean usesScriptDirectory() {
        return false;
    }

    @Override
    public String describe() {
        return "Jobs in namespace " + settings.namespace() + " as service account " + settings.serviceAccount()
                + " (default image " + settings.image() + ")";
    }

    @Override
    public CommandResult run(StepLaunch launch, OsCommand.LineSink sink) {
        long start = System.nanoTime();
        Job spec;
        try {
            spec = JobSpecs.job(launch, new JobSpecs.Defaults(settings.image(), settings.serviceAccount(),
                    settings.cpu(), settings.memory(), settings.ttlSecondsAfterFinished()));
        } catch (JobSpecs.Invalid e) {
            return notStarted(sink, e.getMessage());
        }
        String name;
        try {
            name = attachOrCreate(launch, spec, sink);
        } catch (KubernetesClientException e) {
            return notStarted(sink, "Kubernetes refused Job " + spec.getMetadata().getName() + " in namespace "
                    + settings.namespace() + ": " + message(e));
        }
        return await(name, launch, image(spec), sink, start);
    }

    /** The Job that does the launch's work: one of the same work that runs or succeeded, else a new one. */
    private String attachOrCreate(StepLaunch launch, Job spec, OsCommand.LineSink sink) {
        List<Job> same = jobs().withLabel(JobSpecs.WORK, JobSpecs.workHash(launch.workKey())).list().getItems();
        Optional<Job> running = same.stream()
                .filter(j -> j.getMetadata().getDeletionTimestamp() == null && JobEndings.reusable(j))
                .min(Comparator.comparing(j -> j.getMetadata().getName()));
        if (running.isPresent()) {
            String name = running.get().getMetadata().getName();
            sink.line("runner", "attached to Job " + name + " in namespace " + settings.namespace()
                    + ", started earlier for the same work (" + launch.workKey() + "): it is not started again");
            return name;
        }
        for (Job failed : same) {
            // a failed attempt of the same work is replaced, not resumed: its pod and log go with it
            jobs().withName(failed.getMetadata().getName()).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
            sink.line("runner", "deleted failed Job " + failed.getMetadata().getName() + " of the same work");
        }
        List<String> shown = new ArrayList<>(List.of(launch.script().strip().split("\\s+")));
        shown.addAll(launch.shownArgs());
        sink.line("runner", "$ " + String.join(" ", shown) + "  [Job " + spec.getMetadata().getName() + " in namespace "
                + settings.namespace() + ", image " + image(spec) + "]");
        jobs().resource(spec).create();
        return spec.getMetadata().getName();
    }

    /** Reads the Job and its pod until the Job ends, handing on the pod's log as it grows. */
    private CommandResult await(String name, StepLaunch launch, String image, OsCommand.LineSink sink, long start) {
        PodLog log = new PodLog(sink);
        boolean podSeen = false;
        Long pullFailingSince = null;
        long giveUpAt = start + launch.timeout().plus(UNREACHABLE_SLACK).toNanos();
        while (true) {
            if (drain.abandoned()) {
                // the runner that resumes the run attaches to this Job by its work label: it must go on running
                sink.line("runner", "left Job " + name + " running: this runner gave the run up to another one");
                return CommandResult.lost("this runner gave the run up while Job " + name + " ran", log.stdout(),
                        took(start));
            }
            try {
                Job job = jobs().withName(name).get();
                Pod pod = pod(name);
                podSeen |= pod != null;
                if (pod != null && JobEndings.started(pod)) {
                    log.read(podLog(pod), false);
                }
                Optional<JobEndings.Ending> ending = JobEndings.of(name, job, pod, podSeen);
                if (ending.isPresent()) {
                    return ended(name, ending.get(), pod, log, launch, sink, start);
                }
                Optional<String> pull = JobEndings.pullFailure(pod);
                if (pull.isEmpty()) {
                    pullFailingSince = null;
                } else if (pullFailingSince == null) {
                    pullFailingSince = System.nanoTime();
                } else if (System.nanoTime() - pullFailingSince > settings.imagePullGrace().toNanos()) {
                    String reason = "image " + image + " cannot be pulled (" + pull.get() + ")";
                    delete(name);
                    sink.line("runner", "ended: not started: " + reason + "; Job " + name + " deleted");
                    return CommandResult.notStarted(reason);
                }
            } catch (KubernetesClientException e) {
                // the API server may be restarting: the Job goes on without us, and is read again at the next poll
                LOG.warnf("could not read Job %s: %s", name, message(e));
                if (System.nanoTime() - giveUpAt > 0) {
                    String reason = "Job " + name + " could not be read past the step's timeout: " + message(e);
                    sink.line("runner", "ended: " + reason);
                    return CommandResult.lost(reason, log.stdout(), took(start));
                }
            }
            try {
                Thread.sleep(settings.poll().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sink.line("runner", "stopped waiting for Job " + name + ": interrupted");
                return CommandResult.lost("interrupted while Job " + name + " ran", log.stdout(), took(start));
            }
        }
    }

    private CommandResult ended(String name, JobEndings.Ending ending, Pod pod, PodLog log, StepLaunch launch,
                                OsCommand.LineSink sink, long start) {
        if (pod != null) {
            try {
                log.read(podLog(pod), true);
            } catch (KubernetesClientException e) {
                // an evicted or deleted pod may have no log left: what was read while it ran stays
                LOG.debugf("no final log of pod %s: %s", pod.getMetadata().getName(), message(e));
            }
        }
        Duration took = took(start);
        CommandResult result = switch (ending.kind()) {
            case EXITED -> new CommandResult(ending.exitCode(), false, log.stdout(),
                    ending.exitCode() == 0 ? "" : ending.reason(), took, true);
            case DEADLINE -> new CommandResult(-1, true, log.stdout(), ending.reason(), launch.timeout(), true);
            case LOST -> CommandResult.lost(ending.reason(), log.stdout(), took);
        };
        String why = ending.kind() == JobEndings.Kind.EXITED ? "" : " (" + ending.reason() + ")";
        sink.line("runner", "ended: " + result.describe() + " after " + took.toMillis() + " ms" + why);
        delete(name);
        return result;
    }

    /**
     * The launcher deletes each Job it saw end, so that a later run of the same work (a retry, a resumed run) starts
     * it anew instead of attaching to an old ending; ttlSecondsAfterFinished removes one it could not.
     */
    private void delete(String name) {
        try {
            jobs().withName(name).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not delete Job %s (its ttlSecondsAfterFinished removes it): %s", name, message(e));
        }
    }

    private Pod pod(String jobName) {
        return client.get().pods().inNamespace(settings.namespace()).withLabel("job-name", jobName).list().getItems().stream()
                .max(Comparator.comparing(p -> String.valueOf(p.getMetadata().getCreationTimestamp())))
                .orElse(null);
    }

    private String podLog(Pod pod) {
        return client.get().pods().inNamespace(settings.namespace()).withName(pod.getMetadata().getName())
                .inContainer(JobSpecs.CONTAINER).getLog();
    }

    private NonNamespaceOperation<Job, JobList, ScalableResource<Job>> jobs() {
        return client.get().batch().v1().jobs().inNamespace(settings.namespace());
    }

    private static String image(Job spec) {
        return spec.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private static CommandResult notStarted(OsCommand.LineSink sink, String reason) {
        sink.line("runner", "ended: not started: " + reason);
        return CommandResult.notStarted(reason);
    }

    /** The API's own message (e.g. namespaces "x" not found, forbidden), not the client's wrapping of it. */
    private static String message(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage() + " (HTTP " + e.getCode() + ")";
        }
        return e.getMessage();
    }

    private static Duration took(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
