package io.batchyard.execution.command;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.LifecycleCommandType;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.path.json.JsonPath;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Commands over Kafka are audited like REST calls: who sent them (the verified token's subject, or anonymous), which
 * command for which process, and whether it was accepted or rejected with which code; a redelivered command is
 * audited once, like it is applied once. The events an accepted command writes carry its sender as actor.
 */
@ExecutionTest
class CommandAuditTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void eachCommandIsAuditedOnceWithItsSenderAndOutcome() {
        long p = id(), s1 = id();
        String operator = "op-" + UUID.randomUUID();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap);
             EventProbe lifecycle = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE);
             EventProbe rejections = EventProbe.on(bootstrap, Topics.EXECUTION_REJECTIONS)) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-1",
                    ProcessTrees.application(1, null, null, 7, 7, 7));
            f.register(ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));

            // without a token, delivered twice: one rejection, one audit entry
            LifecycleCommand anonymous = command(LifecycleCommandType.INIT_JOB, p);
            f.publisher.publishAs(null, Topics.EXECUTION_COMMANDS, p, anonymous);
            f.publisher.publishAs(null, Topics.EXECUTION_COMMANDS, p, anonymous);
            // from an operator, delivered twice: one run, one audit entry
            LifecycleCommand init = command(LifecycleCommandType.INIT_JOB, p);
            String token = "Bearer " + Identity.get().token(operator, "operator");
            f.publisher.publishAs(token, Topics.EXECUTION_COMMANDS, p, init);
            f.publisher.publishAs(token, Topics.EXECUTION_COMMANDS, p, init);
            var started = lifecycle.await(JobStarted.class, e -> e.getProcessId() == p, WAIT);
            assertThat(started.event().getHeader().getActor()).isEqualTo(operator);
            // a last command on the same key: once it is answered, the redeliveries before it were handled
            LifecycleCommand marker = command(LifecycleCommandType.HALT_STEP, p);
            f.publisher.publishAs(null, Topics.EXECUTION_COMMANDS, p, marker);
            rejections.await(CommandRejected.class,
                    e -> marker.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), WAIT);
        }

        JsonPath trail = await().atMost(WAIT).until(() -> given().queryParam("processId", p).get("/audit").then()
                .statusCode(200).extract().jsonPath(), page -> page.getInt("total") >= 3);
        assertThat(trail.getInt("total")).isEqualTo(3);
        assertThat(trail.getList("items.channel", String.class)).containsOnly("COMMAND");
        assertThat(trail.getList("items.action", String.class)).containsExactly("HALT_STEP", "INIT_JOB", "INIT_JOB");
        assertThat(trail.getList("items.subject", String.class)).containsExactly("anonymous", operator, "anonymous");
        assertThat(trail.getList("items.outcome", String.class)).containsExactly("REJECTED", "ACCEPTED", "REJECTED");
        assertThat(trail.getList("items.problemCode", Integer.class)).containsExactly(12, null, 12);
    }

    private static LifecycleCommand command(LifecycleCommandType type, long pid) {
        return LifecycleCommand.newBuilder().setHeader(Events.header("spark-job", null, null)).setCommand(type)
                .setProcessId(pid).setMaxBatch(1).setBatchMarking(null).build();
    }
}
