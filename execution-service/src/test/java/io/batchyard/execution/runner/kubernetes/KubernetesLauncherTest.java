package io.batchyard.execution.runner.kubernetes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.deployment.DeployPoller;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.WorkflowExecution;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.batchyard.teststack.ProcessTrees;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stand-alone runs whose steps are Kubernetes Jobs, through the runner, the lifecycle, PostgreSQL and Kafka. There is
 * no cluster: the fabric8 mock API server in CRUD mode stores what the launcher creates, and the test plays the Job
 * controller and the kubelet (it creates the Job's pod, sets the statuses, serves the pod's log).
 */
@ExecutionTest
@TestProfile(KubernetesLauncherTest.Profile.class)
@WithKubernetesTestServer(crud = true)
class KubernetesLauncherTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("batchyard.runner.launcher", "kubernetes",
                    "batchyard.runner.kubernetes.namespace", NS,
                    "batchyard.runner.kubernetes.image", "debian:bookworm-slim",
                    "batchyard.runner.kubernetes.service-account", "batchyard-job",
                    "batchyard.runner.kubernetes.poll", "100ms",
                    "batchyard.runner.kubernetes.image-pull-grace", "1s");
        }
    }

    static final String NS = "batchyard-jobs";
    /** A Friday morning; its daily bucket is 20240301. */
    static final LocalDateTime NOW = LocalDateTime.of(2024, 3, 1, 7, 30);
    static final String BUCKET = "20240301";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    Launcher launcher;

    @Inject
    RunnerScheduler scheduler;

    @Inject
    DeployPoller poller;

    ExecutionFixtures fixtures;
    KubernetesClient cluster;

    @BeforeEach
    void open() {
        fixtures = new ExecutionFixtures(bootstrap);
        cluster = server.getClient();
    }

    @AfterEach
    void close() {
        fixtures.close();
    }

    @Test
    void aStepIsAJobOfItsOwnAndItsExitZeroAndLogMakeTheRun() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, step -> step.property("kubernetes", "image", "registry.example/etl:1.2")
                .property("kubernetes", "cpu", "250m").property("kubernetes", "memory", "1Gi")
                .property("runner", "timeout-seconds", "120"));
        CompletableFuture<WorkflowExecution.Outcome> run = launch(p);

        Job job = awaitJob(s);
        assertThat(job.getMetadata().getName()).matches("by-[0-9a-f]{16}-\\d+").hasSizeLessThanOrEqualTo(63);
        assertThat(job.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "batchyard")
                .containsEntry("batchyard.io/process", String.valueOf(p))
                .containsEntry("batchyard.io/step", String.valueOf(s))
                .containsEntry("batchyard.io/work", JobSpecs.workHash(p + "/" + s + "/" + BUCKET));
        assertThat(job.getMetadata().getAnnotations()).containsEntry("batchyard.io/work-key", p + "/" + s + "/" + BUCKET)
                .containsKey("batchyard.io/step-instance-exec-id");
        assertThat(job.getSpec().getBackoffLimit()).isZero();
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(120L);
        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getServiceAccountName()).isEqualTo("batchyard-job");
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getVolumes()).isNullOrEmpty();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getContainers()).hasSize(1);
        var c = pod.getContainers().get(0);
        assertThat(c.getImage()).isEqualTo("registry.example/etl:1.2");
        assertThat(c.getCommand()).containsExactly("report.sh", "eu", BUCKET);
        assertThat(c.getVolumeMounts()).isNullOrEmpty();
        assertThat(c.getResources().getLimits()).containsEntry("cpu", new Quantity("250m")).containsEntry("memory", new Quantity("1Gi"));
        assertThat(c.getResources().getRequests()).isEqualTo(c.getResources().getLimits());
        assertThat(c.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(c.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        Map<String, String> env = c.getEnv().stream().collect(java.util.stream.Collectors.toMap(EnvVar::getName, EnvVar::getValue));
        assertThat(env).containsEntry("PIPEJOBID", String.valueOf(p)).containsEntry("BATCHYARD_PROCESS_ID", String.valueOf(s))
                .containsEntry("BATCHYARD_PARENT_PROCESS_ID", String.valueOf(p))
                .containsKeys("BATCHYARD_INSTANCE_EXEC_ID", "BATCHYARD_STEP_INSTANCE_EXEC_ID");
        assertThat(env.keySet()).as("only the job contract's values, nothing of the service")
                .allMatch(k -> k.startsWith("PIPE") || k.startsWith("BATCHYARD_"));

        Pod running = startPod(job, "loading eu\n42 rows\n");
        // several polls read the whole log while the pod runs: each line still reaches the run output once
        Thread.sleep(600);
        exit(running, 0);
        complete(job, "Complete", null);

        WorkflowExecution.Outcome outcome = run.get(60, TimeUnit.SECONDS);
        JsonPath runView = runView(outcome.instanceExecId());
        assertThat(runView.getString("run.state")).isEqualTo("SUCCESS");
        assertThat(runView.getString("steps[0].state")).isEqualTo("SUCCESS");
        List<String> lines = runLog(outcome.instanceExecId());
        assertThat(lines).containsSubsequence("loading eu", "42 rows");
        assertThat(lines.stream().filter("42 rows"::equals)).as("each line once").hasSize(1);
        assertThat(lines).anyMatch(l -> l.startsWith("ended: exit code 0"));
        assertThat(jobsOf(s)).as("the launcher deletes the Job it saw end").isEmpty();
    }

    @Test
    void anExitCodeFailsTheStepAndTheRunWithThatCode() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, UnaryOperator.identity());
        CompletableFuture<WorkflowExecution.Outcome> run = launch(p);
        Job job = awaitJob(s);
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("debian:bookworm-slim");
        Pod pod = startPod(job, "table t1 is locked\n");
        exit(pod, 3);
        complete(job, "Failed", "BackoffLimitExceeded");

        WorkflowExecution.Outcome outcome = run.get(60, TimeUnit.SECONDS);
        assertThat(outcome.message()).contains("exit code 3");
        JsonPath runView = runView(outcome.instanceExecId());
        assertThat(runView.getString("run.state")).isEqualTo("FAILED");
        assertThat(runView.getInt("run.failureCode")).isEqualTo(3);
        assertThat(runView.getString("run.failureText")).isEqualTo("step " + s + " (report.sh) exited with code 3");
        assertThat(runView.getString("steps[0].state")).isEqualTo("FAILED");
        assertThat(runLog(outcome.instanceExecId())).contains("table t1 is locked");
    }

    @Test
    void anEvictedPodFailsTheStepNamingTheEviction() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, UnaryOperator.identity());
        CompletableFuture<WorkflowExecution.Outcome> run = launch(p);
        Job job = awaitJob(s);
        Pod pod = startPod(job, "half done\n");
        status(pod, new PodBuilder(pod).editStatus().withPhase("Failed").withReason("Evicted")
                .withMessage("The node was low on resource: memory.").endStatus().build());

        WorkflowExecution.Outcome outcome = run.get(60, TimeUnit.SECONDS);
        JsonPath runView = runView(outcome.instanceExecId());
        assertThat(runView.getString("run.state")).isEqualTo("FAILED");
        assertThat(runView.getString("run.failureCode")).isNull();
        assertThat(runView.getString("run.failureText")).contains("was evicted").contains("low on resource");
        assertThat(runLog(outcome.instanceExecId())).contains("half done");
    }

    @Test
    void aJobPastItsDeadlineFailsTheStepAsTimedOut() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, step -> step.property("runner", "timeout-seconds", "5"));
        CompletableFuture<WorkflowExecution.Outcome> run = launch(p);
        Job job = awaitJob(s);
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(5L);
        startPod(job, "slow\n");
        complete(job, "Failed", "DeadlineExceeded");

        WorkflowExecution.Outcome outcome = run.get(60, TimeUnit.SECONDS);
        JsonPath runView = runView(outcome.instanceExecId());
        assertThat(runView.getString("run.state")).isEqualTo("FAILED");
        assertThat(runView.getString("run.failureText")).isEqualTo("step " + s + " (report.sh) was killed after its timeout of 5 s");
        assertThat(runLog(outcome.instanceExecId())).anyMatch(l -> l.startsWith("ended: killed after its timeout of 5 s")
                && l.contains("passed its deadline of 5 s"));
    }

    @Test
    void anImageThatCannotBePulledFailsTheStepAfterTheGraceAndItsJobIsDeleted() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, step -> step.property("kubernetes", "image", "registry.example/missing:0"));
        CompletableFuture<WorkflowExecution.Outcome> run = launch(p);
        Job job = awaitJob(s);
        Pod pod = cluster.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(job.getMetadata().getName() + "-x")
                .addToLabels("job-name", job.getMetadata().getName()).endMetadata()
                .withNewStatus().withPhase("Pending").withContainerStatuses(new ContainerStatusBuilder().withName("step")
                        .withNewState().withNewWaiting().withReason("ImagePullBackOff").withMessage("Back-off pulling image")
                        .endWaiting().endState().build()).endStatus().build()).create();
        assertThat(pod).isNotNull();

        WorkflowExecution.Outcome outcome = run.get(60, TimeUnit.SECONDS);
        JsonPath runView = runView(outcome.instanceExecId());
        assertThat(runView.getString("run.state")).isEqualTo("FAILED");
        assertThat(runView.getString("run.failureText"))
                .contains("image registry.example/missing:0 cannot be pulled").contains("ImagePullBackOff");
        assertThat(jobsOf(s)).isEmpty();
    }

    @Test
    void aBadQuantityFailsTheStepUnlaunchedWithAClearReason() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, step -> step.property("kubernetes", "memory", "lots"));
        WorkflowExecution.Outcome outcome = launch(p).get(60, TimeUnit.SECONDS);
        JsonPath runView = runView(outcome.instanceExecId());
        assertThat(runView.getString("run.state")).isEqualTo("FAILED");
        assertThat(runView.getString("run.failureText")).contains("could not be started")
                .contains("property kubernetes/memory of step " + s).contains("'lots'");
        assertThat(jobsOf(s)).isEmpty();
    }

    @Test
    void aJobOfTheSameWorkStillRunningIsAttachedToNotStartedTwice() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, UnaryOperator.identity());
        // what a predecessor service left: the step's Job, running, with the step's work label
        String workKey = p + "/" + s + "/" + BUCKET;
        Job left = cluster.batch().v1().jobs().inNamespace(NS).resource(new JobBuilder().withNewMetadata()
                .withName("by-predecessor-1").addToLabels("app.kubernetes.io/managed-by", "batchyard")
                .addToLabels("batchyard.io/step", String.valueOf(s)).addToLabels("batchyard.io/work", JobSpecs.workHash(workKey))
                .endMetadata().withNewSpec().withActiveDeadlineSeconds(3600L).endSpec().build()).create();
        Pod pod = startPod(left, "started by the predecessor\n");

        CompletableFuture<WorkflowExecution.Outcome> run = launch(p);
        // several polls go by: still the one Job
        Thread.sleep(1500);
        assertThat(run).isNotDone();
        assertThat(jobsOf(s)).extracting(j -> j.getMetadata().getName()).containsExactly("by-predecessor-1");
        exit(pod, 0);
        complete(left, "Complete", null);

        WorkflowExecution.Outcome outcome = run.get(60, TimeUnit.SECONDS);
        JsonPath runView = runView(outcome.instanceExecId());
        assertThat(runView.getString("run.state")).isEqualTo("SUCCESS");
        List<String> lines = runLog(outcome.instanceExecId());
        assertThat(lines).anyMatch(l -> l.startsWith("attached to Job by-predecessor-1"));
        assertThat(lines).contains("started by the predecessor");
        assertThat(jobsOf(s)).isEmpty();
    }

    @Test
    void aRunnerGivingItsRunUpLeavesTheJobRunningAndTheRunnerThatResumesItAttachesToIt() throws Exception {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, UnaryOperator.identity());
        CompletableFuture<WorkflowExecution.Outcome> given = launch(p);
        Job job = awaitJob(s);
        Pod pod = startPod(job, "one\n");
        long first = given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getLong("items[0].instanceExecId");
        try {
            // the drain's grace period is over (what scheduler.drain does then to the runs of its own threads)
            launcher.abandon();
            await().atMost(Duration.ofSeconds(20)).until(() -> runLog(first).stream().anyMatch(l -> l.startsWith("left Job")));
            assertThat(jobsOf(s)).as("the Job goes on without the runner that gave its run up").hasSize(1);
            assertThat(given).failsWithin(Duration.ofSeconds(10)).withThrowableThat().withMessageContaining("left to another runner");
        } finally {
            scheduler.resume();
        }

        // another replica takes the run over, resumes it at the unfinished step and finds the Job of the same work
        CompletableFuture<WorkflowExecution.Outcome> resumed = CompletableFuture.supplyAsync(
                () -> launcher.runOnce(p, NOW, "replica-2").outcome().orElseThrow());
        await().atMost(Duration.ofSeconds(30)).until(() -> given().queryParam("processId", p).get("/runs").then()
                .extract().jsonPath().getList("items").size() > 1);
        Thread.sleep(600);
        assertThat(jobsOf(s)).extracting(j -> j.getMetadata().getName()).containsExactly(job.getMetadata().getName());
        exit(pod, 0);
        complete(job, "Complete", null);

        WorkflowExecution.Outcome outcome = resumed.get(60, TimeUnit.SECONDS);
        assertThat(runView(outcome.instanceExecId()).getString("run.state")).isEqualTo("SUCCESS");
        assertThat(runLog(outcome.instanceExecId())).anyMatch(l -> l.startsWith("attached to Job " + job.getMetadata().getName()))
                .contains("one");
        assertThat(runView(first).getString("run.state")).isEqualTo("FAILED");
    }

    /** A stand-alone parent with one step, {@code report.sh eu}, whose daily bucket rule gives today's bucket. */
    /**
     * A stand-alone parent deploys without its steps' scripts in this service's script directory: they are in the
     * images of its Jobs. (Under the local launcher the same deployment fails naming the missing script.)
     */
    @Test
    void aStandAloneParentDeploysWithoutLocalStepScriptsWhenItsStepsRunAsJobs() {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        parent(p, s, step -> step);
        long id = given().post("/processes/" + p + "/deployments").then().statusCode(201).extract().jsonPath()
                .getLong("deploymentId");
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            poller.pollOnce();
            String status = given().get("/deployments/" + id).then().statusCode(200).extract().jsonPath()
                    .getString("status");
            return "SUCCESS".equals(status) || "FAIL".equals(status);
        });
        JsonPath deployment = given().get("/deployments/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(deployment.getString("status")).as(deployment.getString("message")).isEqualTo("SUCCESS");
        assertThat(deployment.getString("message")).endsWith("its 1 step(s) run in the images their Jobs name (kubernetes: "
                + "Jobs in namespace " + NS + " as service account batchyard-job (default image debian:bookworm-slim))");
    }

    private void parent(long p, long s, UnaryOperator<ProcessTrees.Step> more) {
        fixtures.register(ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, step -> more.apply(step.property("script", "run", "report.sh").property("param", "1", "eu")).next(p)));
        given().contentType(ContentType.JSON).body(Map.of("bucket", "YYYYMMDD")).put("/runner/processes/" + p)
                .then().statusCode(200);
    }

    private CompletableFuture<WorkflowExecution.Outcome> launch(long p) {
        return CompletableFuture.supplyAsync(() -> launcher.runOnce(p, NOW).outcome().orElseThrow());
    }

    private List<Job> jobsOf(long s) {
        return cluster.batch().v1().jobs().inNamespace(NS).withLabel("batchyard.io/step", String.valueOf(s)).list().getItems();
    }

    private Job awaitJob(long s) {
        await().atMost(Duration.ofSeconds(30)).until(() -> !jobsOf(s).isEmpty());
        return jobsOf(s).get(0);
    }

    /** The kubelet's part: the Job's pod, its container running, and its log as the API serves it. */
    private Pod startPod(Job job, String log) {
        String name = job.getMetadata().getName() + "-pod";
        server.expect().get().withPath("/api/v1/namespaces/" + NS + "/pods/" + name + "/log?pretty=false&container=step")
                .andReturn(200, log).always();
        return cluster.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name)
                .addToLabels("job-name", job.getMetadata().getName()).endMetadata()
                .withNewSpec().addNewContainer().withName("step").withImage("x").endContainer().endSpec()
                .withNewStatus().withPhase("Running").withContainerStatuses(new ContainerStatusBuilder().withName("step")
                        .withNewState().withNewRunning().endRunning().endState().build()).endStatus().build()).create();
    }

    private void exit(Pod pod, int code) {
        status(pod, new PodBuilder(pod).editStatus().withPhase(code == 0 ? "Succeeded" : "Failed")
                .withContainerStatuses(new ContainerStatusBuilder().withName("step").withNewState().withNewTerminated()
                        .withExitCode(code).withReason(code == 0 ? "Completed" : "Error").endTerminated().endState().build())
                .endStatus().build());
    }

    private void status(Pod pod, Pod withStatus) {
        Pod current = cluster.pods().inNamespace(NS).withName(pod.getMetadata().getName()).get();
        withStatus.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
        cluster.pods().inNamespace(NS).resource(withStatus).updateStatus();
    }

    /** The Job controller's part: the Job's end condition. */
    private void complete(Job job, String type, String reason) {
        Job current = cluster.batch().v1().jobs().inNamespace(NS).withName(job.getMetadata().getName()).get();
        Job ended = new JobBuilder(current).withNewStatus().addToConditions(new JobConditionBuilder().withType(type)
                .withStatus("True").withReason(reason).build()).endStatus().build();
        cluster.batch().v1().jobs().inNamespace(NS).resource(ended).updateStatus();
    }

    private static JsonPath runView(long ie) {
        return given().get("/runs/" + ie).then().statusCode(200).extract().jsonPath();
    }

    private static List<String> runLog(long ie) {
        return given().queryParam("limit", 500).get("/runs/" + ie + "/log").then().statusCode(200).extract().jsonPath()
                .getList("items.line");
    }
}
