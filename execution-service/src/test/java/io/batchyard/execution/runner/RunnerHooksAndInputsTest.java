package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.teststack.ProcessTrees;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rest of the runner's inputs: OnInit, loop scripts, context files and scripts, range checks, step concurrency. */
@ExecutionTest
class RunnerHooksAndInputsTest extends RunnerTestSupport {

    @Test
    void aFailingOnInitFailsTheRunBeforeAnyStepAndOnErrorSeesItsStderr() {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String step = f.script("never" + p + ".sh", "echo ran >> " + f.file("ran-" + p));
        String onInit = f.script("init" + p + ".sh", "echo \"init of $PIPEJOBID by $PIPEJOBSCRIPT\" >> " + f.file("init-" + p)
                + "; echo 'source system down' >&2; exit 4");
        String onError = f.script("err" + p + ".sh", "printf '%s' \"$PIPEERROR\" > " + f.file("err-" + p));
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", step).next(p)));
        f.policy(p, Map.of("hooks", Map.of("onInit", onInit, "onError", onError)));
        f.bucket(p, "b1");

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).isEqualTo(State.FAILED);
        assertThat(outcome.message()).contains("OnInit hook exit code 4");
        assertThat(f.lines("ran-" + p)).isEmpty();
        assertThat(f.lines("init-" + p)).containsExactly("init of " + p + " by " + onInit);
        assertThat(f.lines("err-" + p)).containsExactly("source system down");
    }

    @Test
    void loopScriptsContextFilesAndScriptsAndRangeChecksFeedTheCommand() throws Exception {
        long up = RunnerFixtures.id(), upStep = RunnerFixtures.id();
        f.register(ProcessTrees.parent(up).workflowType(2).next(upStep)
                .step(upStep, st -> st.property("script", "run", f.script("noop" + up + ".sh", "true")).next(up)));
        f.policy(up, Map.of());

        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String calls = f.file("calls-" + p).toString();
        String step = f.script("looped" + p + ".sh", "echo \"$*\" >> " + calls);
        String regions = f.script("regions" + p + ".sh", "echo 'north|south'");
        String ctxScript = f.script("ctx" + p + ".sh", "echo '--mode full'");
        Files.writeString(f.file("ctx-" + p + ".txt"), "--env\nprod\n");
        // the range check gets the bucket and the parent it watches, and says yes once all its hours are done
        String hours = f.script("hours" + p + ".sh", "echo \"$1 $2\" >> " + f.file("checked-" + p) + "; test -f "
                + f.file("hours-done-" + p));
        f.register(ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, st -> st.property("script", "run", step).property("runner", "loop-script", regions).next(p)));
        f.policy(p, Map.of(
                "context", Map.of("value", "-q", "file", inWorkDir(f.file("ctx-" + p + ".txt")), "script", ctxScript),
                "dependencies", List.of(Map.of("processId", up, "script", hours))));
        f.bucket(p, "20240229");

        assertThat(launcher.runOnce(p, NOW).claimed()).isEmpty();
        assertThat(f.lines("checked-" + p)).containsExactly("20240229 " + up);
        Files.writeString(f.file("hours-done-" + p), "");

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        assertThat(f.lines("calls-" + p)).containsExactly(
                "-q --env prod --mode full 20240229 north",
                "-q --env prod --mode full 20240229 south");
    }

    @Test
    void stepConcurrencyOfOneRunsTheBranchesOfAForkOneAfterTheOther() throws Exception {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id(), s2 = RunnerFixtures.id(), s3 = RunnerFixtures.id();
        String trace = f.file("trace-" + p).toString();
        String branch = f.script("branch" + p + ".sh", "echo \"start $1\" >> " + trace + "; sleep 0.5; echo \"end $1\" >> " + trace);
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1, s2)
                .step(s1, st -> st.property("script", "run", branch).property("param", "1", "a").next(s3))
                .step(s2, st -> st.property("script", "run", branch).property("param", "1", "b").next(s3))
                .step(s3, st -> st.property("script", "run", branch).property("param", "1", "c").next(p)));
        f.policy(p, Map.of("stepConcurrency", 1));
        f.bucket(p, "b1");

        assertThat(launcher.runOnce(p, NOW).outcome().orElseThrow().bucketState()).isEqualTo(State.COMPLETE);
        assertThat(Files.readAllLines(f.file("trace-" + p)))
                .containsExactly("start a", "end a", "start b", "end b", "start c", "end c");
    }
}
