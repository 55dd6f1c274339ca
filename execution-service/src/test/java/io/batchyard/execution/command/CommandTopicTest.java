package io.batchyard.execution.command;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.events.LifecycleCommandType;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@ExecutionTest
class CommandTopicTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void commandsOverKafkaRunOnceAndRejectionsAnswerTheProducer() {
        long p = id(), s1 = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap);
             EventProbe lifecycle = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE);
             EventProbe rejections = EventProbe.on(bootstrap, Topics.EXECUTION_REJECTIONS)) {
            var tree = f.register(ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));

            // a poison record first: it must not block the commands behind it
            f.publisher.publishRaw(Topics.EXECUTION_COMMANDS, String.valueOf(p),
                    "garbage".getBytes(StandardCharsets.UTF_8));
            LifecycleCommand init = command(LifecycleCommandType.INIT_JOB, p, 1);
            f.publisher.publish(Topics.EXECUTION_COMMANDS, p, init);
            f.publisher.publish(Topics.EXECUTION_COMMANDS, p, init); // redelivered
            var started = lifecycle.await(JobStarted.class, e -> e.getProcessId() == p, WAIT);
            assertThat(started.event().getHeader().getCorrelationId()).isEqualTo(init.getHeader().getEventId());

            LifecycleCommand again = command(LifecycleCommandType.INIT_JOB, p, 1);
            f.publisher.publish(Topics.EXECUTION_COMMANDS, p, again);
            var rejected = rejections.await(CommandRejected.class,
                    e -> again.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), WAIT);
            assertThat(rejected.event().getCode()).isEqualTo(104);
            assertThat(rejected.event().getMessage()).contains("Parent Process is already running. pid=" + p);
            assertThat(rejected.key()).isEqualTo(String.valueOf(p));

            // the redelivered init ran once: one run, no rejection for it
            given().queryParam("processId", p).get("/runs").then().body("total", equalTo(1));
            assertThat(rejections.all(CommandRejected.class,
                    e -> init.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), Duration.ofSeconds(1))).isEmpty();
            assertThat(tree.getParentProcessId()).isEqualTo(p);
        }
    }

    @Test
    void aCommandIsAuthorisedLikeItsRestTwinAndARefusalChangesNothing() {
        long p = id(), s1 = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap);
             EventProbe lifecycle = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE);
             EventProbe rejections = EventProbe.on(bootstrap, Topics.EXECUTION_REJECTIONS)) {
            // the seeded application, as registry-service announces it: anyone with the operator role may run its jobs
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-1",
                    ProcessTrees.application(1, null, null, 7, 7, 7));
            f.register(ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
            Identity identity = Identity.get();

            assertRejected(f.publisher, rejections, null, p, 12);
            assertRejected(f.publisher, rejections, "Bearer not-a-token", p, 12);
            assertRejected(f.publisher, rejections, "Basic dXNlcjpwYXNz", p, 12);
            assertRejected(f.publisher, rejections, "Bearer " + identity.token("ann", "viewer"), p, 13);
            assertRejected(f.publisher, rejections, "Bearer " + identity.token("dev", "developer"), p, 13);
            given().queryParam("processId", p).get("/runs").then().body("total", equalTo(0));

            LifecycleCommand init = command(LifecycleCommandType.INIT_JOB, p, 1);
            f.publisher.publishAs("Bearer " + identity.token("op", "operator"), Topics.EXECUTION_COMMANDS, p, init);
            lifecycle.await(JobStarted.class, e -> e.getProcessId() == p, WAIT);
            given().queryParam("processId", p).get("/runs").then().body("total", equalTo(1));
        }
    }

    @Test
    void aTermJobCommandCarriesItsErrorCodeAndTextToTheRunAndJobFailed() {
        long p = id(), s1 = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap);
             EventProbe lifecycle = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE);
             EventProbe rejections = EventProbe.on(bootstrap, Topics.EXECUTION_REJECTIONS)) {
            f.register(ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
            f.publisher.publish(Topics.EXECUTION_COMMANDS, p, command(LifecycleCommandType.INIT_JOB, p, 1));
            long ie = lifecycle.await(JobStarted.class, e -> e.getProcessId() == p, WAIT).event().getInstanceExecId();

            // a text the run could not hold is refused like an invalid REST body, and the run keeps running
            LifecycleCommand tooLong = term(p, 7, "x".repeat(2001));
            f.publisher.publish(Topics.EXECUTION_COMMANDS, p, tooLong);
            var rejected = rejections.await(CommandRejected.class,
                    e -> tooLong.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), WAIT);
            assertThat(rejected.event().getCode()).isEqualTo(1);
            assertThat(rejected.event().getMessage()).contains("at most 2000 characters");
            given().get("/runs/" + ie).then().body("run.state", equalTo("RUNNING"))
                    .body("run.failureCode", nullValue()).body("run.failureText", nullValue());

            LifecycleCommand termed = term(p, 137, "executor lost: container killed by YARN");
            f.publisher.publish(Topics.EXECUTION_COMMANDS, p, termed);
            var failed = lifecycle.await(JobFailed.class, e -> e.getInstanceExecId() == ie, WAIT);
            assertThat(failed.event().getHeader().getCorrelationId()).isEqualTo(termed.getHeader().getEventId());
            assertThat(failed.event().getErrorCode()).isEqualTo(137);
            assertThat(failed.event().getErrorText()).isEqualTo("executor lost: container killed by YARN");
            given().get("/runs/" + ie).then().body("run.state", equalTo("FAILED"))
                    .body("run.failureCode", equalTo(137))
                    .body("run.failureText", equalTo("executor lost: container killed by YARN"));
        }
    }

    private static LifecycleCommand term(long pid, Integer errorCode, String errorText) {
        return LifecycleCommand.newBuilder().setHeader(Events.header("spark-job", null, null))
                .setCommand(LifecycleCommandType.TERM_JOB).setProcessId(pid).setErrorCode(errorCode)
                .setErrorText(errorText).build();
    }

    private static void assertRejected(EventPublisher publisher, EventProbe rejections, String authorization, long pid,
                                       int code) {
        LifecycleCommand init = command(LifecycleCommandType.INIT_JOB, pid, 1);
        publisher.publishAs(authorization, Topics.EXECUTION_COMMANDS, pid, init);
        var rejected = rejections.await(CommandRejected.class,
                e -> init.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), WAIT);
        assertThat(rejected.event().getCode()).as("code for authorization %s", authorization).isEqualTo(code);
    }

    private static LifecycleCommand command(LifecycleCommandType type, long pid, Integer maxBatch) {
        return LifecycleCommand.newBuilder().setHeader(Events.header("spark-job", null, null)).setCommand(type)
                .setProcessId(pid).setMaxBatch(maxBatch).setBatchMarking(null).build();
    }
}
