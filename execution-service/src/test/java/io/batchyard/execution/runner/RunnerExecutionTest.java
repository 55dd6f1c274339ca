package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stand-alone runs of real shell scripts through the lifecycle, against real PostgreSQL and Kafka. */
@ExecutionTest
class RunnerExecutionTest extends RunnerTestSupport {

    @Test
    void aForkJoinRunsItsBranchesInParallelAndTheJoinSeesBothOutputs() throws Exception {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id(), s2 = RunnerFixtures.id(), s3 = RunnerFixtures.id(),
                s4 = RunnerFixtures.id();
        String trace = f.file("trace").toString();
        String extract = f.script("extract.sh", "echo \"extract $PIPEJOBID $*\"");
        String branch = f.script("branch.sh", """
                echo "start $1 $(date +%%s%%N)" >> %s
                sleep 1
                echo "end $1 $(date +%%s%%N)" >> %s
                echo "rows-from-$1"
                """.formatted(trace, trace));
        String join = f.script("join.sh", "echo \"joined: $PIPEINOUT\" | tr '\\n' ' '; echo; echo oops >&2");
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, s -> s.property("script", "run", extract).next(s2, s3))
                .step(s2, s -> s.property("script", "run", branch).property("param", "1", "left").next(s4))
                .step(s3, s -> s.property("script", "run", branch).property("param", "1", "right").next(s4))
                .step(s4, s -> s.property("script", "run", join).next(p)));
        f.policy(p, Map.of("bucket", "YYYYMMDD"));

        try (EventProbe lifecycle = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE)) {
            Launcher.Cycle cycle = launcher.runOnce(p, NOW);
            WorkflowExecution.Outcome outcome = cycle.outcome().orElseThrow();
            assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
            assertThat(outcome.buckets()).containsExactly("20240301");
            long ie = outcome.instanceExecId();

            List<String> t = Files.readAllLines(f.file("trace"));
            long leftStart = at(t, "start left"), rightStart = at(t, "start right");
            long leftEnd = at(t, "end left"), rightEnd = at(t, "end right");
            assertThat(Math.max(leftStart, rightStart)).as("both branches started before either ended")
                    .isLessThan(Math.min(leftEnd, rightEnd));

            var halted = lifecycle.await(JobHalted.class, e -> e.getInstanceExecId() == ie, RunnerFixtures.WAIT);
            assertThat(halted.event().getBatchMarking()).isEqualTo("20240301");
            for (long s : List.of(s1, s2, s3, s4)) {
                lifecycle.await(StepHalted.class, e -> e.getSubProcessId() == s && e.getParentInstanceExecId() == ie,
                        RunnerFixtures.WAIT);
            }
            var log = given().queryParam("limit", 500).get("/runs/" + ie + "/log").then().statusCode(200).extract().jsonPath();
            List<String> lines = log.getList("items.line");
            assertThat(lines).contains("extract " + p + " 20240301", "rows-from-left", "rows-from-right", "oops");
            assertThat(lines).anyMatch(l -> l.startsWith("joined: rows-from-left rows-from-right"));
            assertThat(lines.get(0)).as("the run's own lines come first").startsWith("run " + ie + " of process " + p);
            assertThat(log.getList("items.stream")).contains("stdout", "stderr", "runner");
            assertThat(f.status(p, "20240301")).isEqualTo("COMPLETE");
        }
    }

    @Test
    void aFailingStepTermsTheJobFiresOnErrorAndTheRetryResumesAfterTheCompletedSteps() throws Exception {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id(), s2 = RunnerFixtures.id(), s3 = RunnerFixtures.id();
        String flag = f.file("fixed").toString();
        String counted = f.script("counted.sh", "echo \"$BATCHYARD_PROCESS_ID\" >> " + f.file("runs") + "; echo ok");
        String flaky = f.script("flaky.sh", """
                echo "$BATCHYARD_PROCESS_ID" >> %s
                if [ ! -f %s ]; then echo "table t1 is locked" >&2; exit 3; fi
                echo fine""".formatted(f.file("runs"), flag));
        String onError = f.script("on_error.sh", "printf '%s' \"$PIPEERROR\" > " + f.file("alert") + "; echo \"$PIPEJOBID\" >> "
                + f.file("alert-jobs"));
        String onSuccess = f.script("on_success.sh", "echo \"done $PIPEINOUT\" > " + f.file("success"));
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, s -> s.property("script", "run", counted).next(s2))
                .step(s2, s -> s.property("script", "run", flaky).next(s3))
                .step(s3, s -> s.property("script", "run", counted).next(p)));
        f.policy(p, Map.of("hooks", Map.of("onError", onError, "onSuccess", onSuccess)));
        f.bucket(p, "20240229");

        try (EventProbe lifecycle = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE)) {
            WorkflowExecution.Outcome failed = launcher.runOnce(p, NOW).outcome().orElseThrow();
            assertThat(failed.bucketState()).isEqualTo(State.FAILED);
            assertThat(failed.message()).contains("step " + s2).contains("exit code 3");
            lifecycle.await(StepFailed.class, e -> e.getSubProcessId() == s2, RunnerFixtures.WAIT);
            // TermJob records the failing step's exit code and what failed, on the run and on JobFailed
            String reason = "step " + s2 + " (" + flaky + ") exited with code 3";
            var jobFailed = lifecycle.await(JobFailed.class, e -> e.getInstanceExecId() == failed.instanceExecId(),
                    RunnerFixtures.WAIT);
            assertThat(jobFailed.event().getErrorCode()).isEqualTo(3);
            assertThat(jobFailed.event().getErrorText()).isEqualTo(reason);
            given().get("/runs/" + failed.instanceExecId()).then().statusCode(200)
                    .body("run.failureCode", equalTo(3))
                    .body("run.failureText", equalTo(reason));
            assertThat(f.lines("alert")).containsExactly("table t1 is locked");
            assertThat(f.lines("alert-jobs")).containsExactly(String.valueOf(p));
            assertThat(f.lines("runs")).containsExactly(String.valueOf(s1), String.valueOf(s2));
            assertThat(f.status(p, "20240229")).isEqualTo("FAILED");

            // A failed bucket waits for an explicit retry; the next cycle does nothing and /why says so.
            assertThat(launcher.runOnce(p, NOW).claimed()).isEmpty();
            given().queryParam("bucket", "20240229").get("/why/" + p).then().statusCode(200)
                    .body("reasons.code", org.hamcrest.Matchers.hasItem("BUCKET_FAILED"));

            Files.writeString(f.file("fixed"), "");
            given().post("/runner/processes/" + p + "/buckets/20240229/retry").then().statusCode(200).body("status",
                    equalTo("INIT"));
            WorkflowExecution.Outcome resumed = launcher.runOnce(p, NOW).outcome().orElseThrow();
            assertThat(resumed.bucketState()).as(resumed.message()).isEqualTo(State.COMPLETE);
            assertThat(resumed.skippedSteps()).containsExactly(s1);
            assertThat(f.lines("runs")).containsExactly(String.valueOf(s1), String.valueOf(s2), String.valueOf(s2),
                    String.valueOf(s3));
            assertThat(f.lines("success")).first().isEqualTo("done ok");
            lifecycle.await(JobHalted.class, e -> e.getInstanceExecId() == resumed.instanceExecId(), RunnerFixtures.WAIT);
        }
    }

    @Test
    void aStepWhoseScriptIsMissingFailsTheRunWithTheReasonAndNoCode() {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id();
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, s -> s.property("script", "run", "absent-" + p + ".sh").next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");
        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).isEqualTo(State.FAILED);
        given().get("/runs/" + outcome.instanceExecId()).then().statusCode(200)
                .body("run.state", equalTo("FAILED"))
                .body("run.failureCode", nullValue())
                .body("run.failureText", allOf(
                        startsWith("step " + s1 + " (absent-" + p + ".sh) could not be started: "),
                        containsString("not found")));
        // the bucket row says why too, not a meaningless exit code
        given().queryParam("limit", 500).get("/runner/processes/" + p + "/buckets").then().statusCode(200)
                .body("items.find { it.bucket == 'b1' }.message", allOf(containsString("not started: script 'absent-"
                        + p + ".sh' not found"), org.hamcrest.Matchers.not(containsString("exit code"))));
    }

    @Test
    void aStepPastItsTimeoutIsKilledAndFailed() {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id();
        String slow = f.script("slow.sh", "echo starting; sleep 30; echo never");
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, s -> s.property("script", "run", slow).property("runner", "timeout-seconds", "1").next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");
        long t0 = System.nanoTime();
        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat((System.nanoTime() - t0) / 1_000_000_000).isLessThan(20);
        assertThat(outcome.bucketState()).isEqualTo(State.FAILED);
        assertThat(outcome.message()).contains("killed after its timeout of 1 s");
        // killed, it returned no exit code of its own: the run says what happened, without a code
        given().get("/runs/" + outcome.instanceExecId()).then()
                .body("run.failureCode", nullValue())
                .body("run.failureText", equalTo("step " + s1 + " (" + slow
                        + ") was killed after its timeout of 1 s"));
        List<String> lines = given().get("/runs/" + outcome.instanceExecId() + "/log").then().statusCode(200)
                .extract().jsonPath().getList("items.line");
        assertThat(lines).contains("starting").doesNotContain("never");
    }

    @Test
    void loopsContextFormattedKeysAndLargeOutputFollowTheEnvContract() {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id(), s2 = RunnerFixtures.id();
        String big = f.script("big.sh", "head -c 70000 /dev/zero | tr '\\\\0' x; echo");
        String looped = f.script("looped.sh", """
                echo "args=$* var=$PIPELOOPVAR inout=${#PIPEINOUT} file=$(wc -c < "$PIPEFILE")" >> %s""".formatted(f.file("calls")));
        String week = f.script("week.sh", "echo '20240219   20240225'");
        given().contentType("application/json").body(Map.of("script", week, "paramFormat", "--from=$1 --to=$2"))
                .put("/runner/bucket-keys/LastWeekOf" + p).then().statusCode(200);
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, s -> s.property("script", "run", big).next(s2))
                .step(s2, s -> s.property("script", "run", looped).property("runner", "loop", "eu|us").next(p)));
        f.policy(p, Map.of("bucket", "LastWeekOf" + p, "context", Map.of("value", "-v --dry")));

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        assertThat(outcome.buckets()).containsExactly("20240219 20240225");
        assertThat(f.lines("calls")).containsExactly(
                "args=-v --dry --from=20240219 --to=20240225 eu var=eu inout=0 file=70001",
                "args=-v --dry --from=20240219 --to=20240225 us var=us inout=0 file=70001");
    }

    private static long at(List<String> trace, String prefix) {
        return trace.stream().filter(l -> l.startsWith(prefix + " ")).map(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(prefix + " missing in " + trace));
    }
}
