package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.batchyard.persistence.Blocking;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.lifecycle.LifecycleService;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a job definition hands the runner beyond its scripts: a context file is read only from inside the runner's work
 * directory, the run output shows a command as defined rather than the words its context expands to, and a line a
 * command prints is kept to {@link OsCommand#MAX_LINE_BYTES}.
 */
@ExecutionTest
class JobInputsTest extends RunnerTestSupport {

    /** Paths a context file once read whole (its words went to the step and, through its echoed argv, to the log). */
    private static final List<String> OUTSIDE = List.of("/etc/passwd", "../../../../../../../../etc/passwd",
            "/proc/self/environ");

    @Inject
    RunPolicyService policies;

    /** A stand-alone parent whose one step prints its arguments and leaves a mark when it runs. */
    private long echoingJob(Path mark) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String echo = f.script("echo" + p + ".sh", "for a in \"$@\"; do echo \"arg: $a\"; done; echo ran >> " + mark);
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", echo)
                .next(p)));
        return p;
    }

    @Test
    void aContextFileOutsideTheWorkDirectoryIsRefusedWhenThePolicyIsWritten() {
        long p = echoingJob(f.file("never"));
        for (String file : OUTSIDE) {
            given().contentType(ContentType.JSON).body(Map.of("context", Map.of("file", file)))
                    .put("/runner/processes/" + p).then().statusCode(422)
                    .contentType("application/problem+json").body("code", equalTo(433))
                    .body("detail", containsString("context.file"));
        }
        given().get("/runner/processes/" + p).then().statusCode(404).body("code", equalTo(405));
    }

    @Test
    void aStoredContextFileOutsideTheWorkDirectoryFailsTheLaunchWithoutReadingIt() {
        for (String file : OUTSIDE) {
            Path mark = f.file("ran-" + file.hashCode());
            long p = echoingJob(mark);
            // a policy written before the rule held, as the database may still have it
            Blocking.await(() -> policies.save(LifecycleService.RUNNER, new RunnerJob(p, true, null, false, false,
                    null, false, RunnerJob.Retry.DEFAULT, new RunnerJob.Context(null, file, null), 4, 3600,
                    RunnerJob.Hooks.NONE, List.of(), null)));
            f.bucket(p, "b1");
            WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
            assertThat(outcome.bucketState()).isEqualTo(State.FAILED);
            assertThat(outcome.message()).as(file).startsWith("problem 433 ").doesNotContain("root:");
            assertNothingRan(p, mark);
        }
    }

    @Test
    void aSymlinkInsideTheWorkDirectoryLeadingOutOfItIsRefusedAtLaunch() throws Exception {
        Path mark = f.file("ran-link");
        long p = echoingJob(mark);
        Path link = Files.createSymbolicLink(f.dir.resolve("innocent-" + p + ".txt"), Path.of("/etc/passwd"));
        f.policy(p, Map.of("context", Map.of("file", inWorkDir(link))));
        f.bucket(p, "b1");
        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).isEqualTo(State.FAILED);
        assertThat(outcome.message()).startsWith("problem 434 ").contains("outside the runner's work directory")
                .doesNotContain("root:");
        assertThat(f.status(p, "b1")).isEqualTo("FAILED");
        given().get("/runner/processes/" + p + "/buckets").then().body(not(containsString("root:")));
        assertNothingRan(p, mark);
    }

    /** No run was started, so no command printed anything; the step never ran. */
    private void assertNothingRan(long p, Path mark) {
        assertThat(outcomeRuns(p)).isZero();
        assertThat(mark).doesNotExist();
    }

    private static int outcomeRuns(long p) {
        return given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getInt("total");
    }

    @Test
    void theRunOutputShowsTheCommandAsDefinedNeverTheWordsItsContextExpandsTo() throws Exception {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String password = "hunter2-" + p, token = "tok-" + p;
        Files.writeString(f.file("ctx-" + p + ".txt"), "--password " + password + "\n");
        String ctxScript = f.script("token" + p + ".sh", "echo " + token);
        // the step checks it got every word, so the placeholders in the log stand for what it really received
        String step = f.script("check" + p + ".sh", "test \"$*\" = \"eu -q --password " + password + " " + token
                + " b1\" || exit 7; echo checked");
        f.register(ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, st -> st.property("script", "run", step).property("param", "1", "eu").next(p)));
        f.policy(p, Map.of("context", Map.of("value", "-q", "file", inWorkDir(f.file("ctx-" + p + ".txt")),
                "script", ctxScript)));
        f.bucket(p, "b1");

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        List<String> lines = given().queryParam("limit", 500).get("/runs/" + outcome.instanceExecId() + "/log").then()
                .statusCode(200).extract().jsonPath().getList("items.line", String.class);
        assertThat(lines).contains("checked");
        assertThat(lines).anyMatch(l -> l.startsWith("$ ") && l.endsWith(step.substring(step.lastIndexOf('/') + 1)
                + " eu -q ${context.file} ${context.script} b1"));
        assertThat(lines).noneMatch(l -> l.contains(password) || l.contains(token));
    }

    @Test
    void aLineOfTenMegabytesWithoutANewlineIsStoredCappedAndTheRunCompletes() {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        int total = 10 * 1024 * 1024;
        String flood = f.script("flood" + p + ".sh", "head -c " + total + " /dev/zero | tr '\\0' y");
        f.register(ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, st -> st.property("script", "run", flood).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        JsonPath log = given().queryParam("limit", 500).get("/runs/" + outcome.instanceExecId() + "/log").then()
                .statusCode(200).extract().jsonPath();
        List<String> printed = log.getList("items.findAll { it.stream == 'stdout' }.line", String.class);
        assertThat(printed).containsExactly("y".repeat(OsCommand.MAX_LINE_BYTES) + " … [truncated "
                + (total - OsCommand.MAX_LINE_BYTES) + " bytes]");
    }
}
