package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.batchyard.client.ProblemException;
import io.batchyard.client.TokenSource;
import io.batchyard.client.kafka.CommandOutcome;
import io.batchyard.client.kafka.CommandRejectedException;
import io.batchyard.client.kafka.KafkaSettings;
import io.batchyard.client.kafka.LifecycleCommands;
import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.teststack.identity.Identity;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's lifecycle sent as Kafka commands through the client library's standalone jar (what a Spark driver takes):
 * each call waits for the lifecycle event that carries its correlation id, the run ends as over REST, and a refused
 * command comes back as the REST call's problem code.
 */
class KafkaCommandsEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void aRunDrivenByKafkaCommandsEndsAndARefusalComesBackWithItsCode(@TempDir Path dir) throws IOException {
        Job job = RegistryFixtures.knownJob(stack, "kafka-commands", WAIT);

        // a token file: TokenSource's factories reach their package-private implementations inside the standalone jar
        Path token = Files.writeString(dir.resolve("token"), Identity.get().adminToken());
        KafkaSettings settings = new KafkaSettings(stack.kafka(), stack.infra.schemaRegistryUrl(),
                TokenSource.file(token), Duration.ofSeconds(15), Map.of());
        try (LifecycleCommands commands = new LifecycleCommands(settings)) {
            CommandOutcome started = commands.initJob(job.parent(), 1);
            assertThat(started.event()).isEqualTo("JobStarted");
            long run = started.instanceExecId();
            assertThat(started.number("processId")).isEqualTo(job.parent());
            assertThat(started.number("targetBatchId")).isNotNull();

            CommandOutcome step = commands.initStep(job.step());
            assertThat(step.event()).isEqualTo("StepStarted");
            assertThat(commands.haltStep(job.step()).event()).isEqualTo("StepHalted");
            CommandOutcome halted = commands.haltJob(job.parent(), "kafka-e2e");
            assertThat(halted.event()).isEqualTo("JobHalted");
            assertThat(halted.correlationId()).isNotEqualTo(started.correlationId());

            // The run as REST shows it: ended by the commands.
            JsonPath runs = given().baseUri(stack.execution.url()).queryParam("processId", job.parent())
                    .get("/runs").then().statusCode(200).extract().jsonPath();
            assertThat(runs.getLong("items[0].instanceExecId")).isEqualTo(run);
            assertThat(runs.getString("items[0].state")).isEqualTo("SUCCESS");

            // The run has ended: HaltJob again is refused, as over REST, with code 105.
            CommandRejectedException refused = catchThrowableOfType(
                    () -> commands.haltJob(job.parent(), "again"), CommandRejectedException.class);
            assertThat(refused).isInstanceOf(ProblemException.class);
            assertThat(refused.code()).isEqualTo(105);
            assertThat(refused.title()).isEqualTo("The process is not running");
            assertThat(refused.detail()).contains("pid=" + job.parent());
            assertThat(refused.command()).hasToString("HALT_JOB");
        }
    }
}
