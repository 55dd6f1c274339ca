package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A runner that shuts down mid-step: within the grace period the step runs to its end and the run is recorded as
 * usual; past it the step's process is stopped, the lease ends at once, and another runner resumes the run. Either
 * way nothing is killed and forgotten, and nothing new is claimed while draining.
 */
@ExecutionTest
class RunnerDrainTest extends RunnerTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    RunnerScheduler scheduler;

    @AfterEach
    void backInService() {
        scheduler.resume();
    }

    /** A stand-alone parent whose one step writes "started", sleeps {@code seconds} the first time only, then "done". */
    private long sleepyJob(int seconds) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String marker = f.file("slept-" + p).toString();
        String step = f.script("sleepy" + p + ".sh", "echo started >> " + f.file("steps-" + p) + "\n"
                + "if [ ! -e " + marker + " ]; then touch " + marker + "; sleep " + seconds + "; fi\n"
                + "echo done >> " + f.file("steps-" + p));
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", step).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");
        return p;
    }

    private void launchAndAwaitStep(long p) {
        given().contentType(ContentType.JSON).post("/runner/processes/" + p + "/launch").then().statusCode(202);
        await().atMost(WAIT).until(() -> f.lines("steps-" + p).contains("started"));
    }

    @Test
    void aStepThatEndsWithinTheGracePeriodFinishesAndIsRecorded() {
        long p = sleepyJob(2);
        launchAndAwaitStep(p);

        assertThat(scheduler.drain(Duration.ofSeconds(20))).isTrue();

        assertThat(f.lines("steps-" + p)).containsExactly("started", "done");
        assertThat(f.status(p, "b1")).isEqualTo(State.COMPLETE.name());
        // while draining, nothing new starts: neither the tick nor a launch
        long other = sleepyJob(0);
        assertThat(scheduler.tick(java.time.Instant.now())).isEmpty();
        given().contentType(ContentType.JSON).post("/runner/processes/" + other + "/launch").then().statusCode(503)
                .body("code", equalTo(4));
    }

    @Test
    void aStepStillRunningAfterTheGracePeriodIsStoppedAndResumedByAnotherRunner() {
        long p = sleepyJob(60);
        launchAndAwaitStep(p);
        long first = given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getLong("items[0].instanceExecId");

        assertThat(scheduler.drain(Duration.ofSeconds(1))).isFalse();

        // the step's process was stopped: it never wrote "done"; the lease ended, the bucket still says RUNNING
        assertThat(Files.exists(f.file("slept-" + p))).isTrue();
        assertThat(f.lines("steps-" + p)).containsExactly("started");
        assertThat(f.status(p, "b1")).isEqualTo(State.RUNNING.name());

        // another replica takes the dead runner's run over: terminates it and resumes the bucket to its end (here a
        // runner of its own name in this JVM, back in service after the drain)
        scheduler.resume();
        WorkflowExecution.Outcome resumed = launcher.runOnce(p, NOW, "replica-2").outcome().orElseThrow();
        assertThat(resumed.bucketState()).as(resumed.message()).isEqualTo(State.COMPLETE);
        assertThat(f.lines("steps-" + p)).containsExactly("started", "started", "done");
        given().get("/runs/" + first).then().body("run.state", equalTo("FAILED"))
                .body("run.failureText", startsWith("the runner that ran it"));
    }
}
