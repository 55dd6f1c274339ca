package io.batchyard.execution.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command launcher hook with a stub orchestrator script: its arguments, its input, retries and the reason, the
 * timeout that kills what it started, the threads it runs on, and the guard of the default settings.
 */
class ExternalLauncherTest {

    @TempDir
    Path dir;

    private static final LaunchRequest REQUEST = new LaunchRequest(41, 3, "airflow", "event-1", "batch-55", 9,
            List.of(new LaunchRequest.Batch(7, 55, 40L, 42, null)));

    private ExternalLauncher command(Path script) {
        return command(script, Duration.ofSeconds(10), 2);
    }

    private ExternalLauncher command(Path script, Duration timeout, int attempts) {
        return command(script, timeout, attempts, Duration.ofMillis(10));
    }

    private ExternalLauncher command(Path script, Duration timeout, int attempts, Duration backoff) {
        return new ExternalLauncher(new LaunchHookConfig() {
            public Kind kind() {
                return Kind.COMMAND;
            }

            public Optional<String> url() {
                return Optional.empty();
            }

            public Optional<String> command() {
                return Optional.of(script.toString());
            }

            public Optional<List<String>> args() {
                return Optional.of(List.of("trigger-dag"));
            }

            public Duration timeout() {
                return timeout;
            }

            public int attempts() {
                return attempts;
            }

            public Duration backoff() {
                return backoff;
            }
        });
    }

    private Path script(String body) throws IOException {
        Path p = dir.resolve("orchestrator.sh");
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    @Test
    void theCommandGetsItsArgumentsTheTriggerAndTheRequestOnItsInputOnce() throws IOException {
        Path calls = dir.resolve("calls");
        Path input = dir.resolve("input");
        ExternalLauncher launcher = command(script("echo \"$*\" >> " + calls + "\ncat > " + input
                + "\n[ -z \"$BATCHYARD_SECRETS_KEY\" ] || exit 9"));

        assertThat(launcher.launch(REQUEST).await().atMost(Duration.ofSeconds(20))).isEmpty();
        assertThat(Files.readAllLines(calls)).containsExactly("trigger-dag 41 airflow 55");
        assertThat(Files.readString(input)).contains("\"processId\":41", "\"workflowType\":\"airflow\"",
                "\"sourceBatchId\":55", "\"sourceProcessId\":40", "\"eventId\":\"event-1\"");
    }

    @Test
    void aFailingCommandIsRetriedAndItsExitCodeAndOutputAreTheReason() throws IOException {
        Path calls = dir.resolve("calls");
        ExternalLauncher launcher = command(script("echo call >> " + calls + "\necho 'dag is paused' >&2\nexit 3"));

        Optional<String> failure = launcher.launch(REQUEST).await().atMost(Duration.ofSeconds(20));
        assertThat(failure).hasValueSatisfying(why -> assertThat(why).contains("exited with 3", "dag is paused"));
        assertThat(Files.readAllLines(calls)).hasSize(2);
    }

    @Test
    void aCommandPastItsTimeoutIsKilledWithTheChildItStarted() throws IOException {
        Path child = dir.resolve("child.pid");
        // the child outlives its parent's timeout by far, and holds the output open
        ExternalLauncher launcher = command(script("sleep 300 &\necho $! > " + child + "\nwait"),
                Duration.ofSeconds(2), 1);

        Optional<String> failure = launcher.launch(REQUEST).await().atMost(Duration.ofSeconds(30));
        assertThat(failure).hasValueSatisfying(why -> assertThat(why).contains("did not end within PT2S"));
        long pid = Long.parseLong(Files.readString(child).strip());
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("child " + pid).isNotEqualTo(
                        Optional.of(true)));
    }

    @Test
    void theCommandIsWaitedForOnAWorkerAndTheAnswerComesBackOnTheCallersEventLoop() throws Exception {
        Path started = dir.resolve("started");
        ExternalLauncher launcher = command(script("touch " + started + "\nsleep 2"), Duration.ofSeconds(10), 1);
        Vertx vertx = Vertx.vertx();
        try {
            Context loop = vertx.getOrCreateContext();
            CompletableFuture<Thread> answeredOn = new CompletableFuture<>();
            CompletableFuture<Boolean> loopFreeWhileItRan = new CompletableFuture<>();
            loop.runOnContext(v -> launcher.launch(REQUEST).subscribe().with(
                    failure -> answeredOn.complete(Thread.currentThread()), answeredOn::completeExceptionally));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(started));
            loop.runOnContext(v -> loopFreeWhileItRan.complete(true));

            // the event loop runs other work while the command sleeps
            assertThat(loopFreeWhileItRan.get(1, TimeUnit.SECONDS)).isTrue();
            assertThat(answeredOn.isDone()).isFalse();
            assertThat(answeredOn.get(20, TimeUnit.SECONDS).getName()).contains("eventloop");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theCommandHookWithTheDefaultTimeoutAttemptsAndBackOffRetriesThenLaunches() throws IOException {
        Path calls = dir.resolve("calls");
        // the default back-off (PT1S, at most 1,024 s) and timeout (PT30S) make a guard Fault Tolerance accepts
        ExternalLauncher launcher = command(script("echo call >> " + calls + "\n[ $(wc -l < " + calls
                + ") -ge 2 ]"), Duration.ofSeconds(30), 3, Duration.ofSeconds(1));

        assertThat(launcher.launch(REQUEST).await().atMost(Duration.ofSeconds(30))).isEmpty();
        assertThat(Files.readAllLines(calls)).hasSize(2);
    }

    @Test
    void theRetryBudgetCoversEveryAttemptAndItsLongestWait() {
        assertThat(ExternalLauncher.retryBudget(3, 30_000, 1_024_000)).isGreaterThan(1_024_000)
                .isGreaterThanOrEqualTo(3 * (30_000 + 1_024_000));
        assertThat(ExternalLauncher.retryBudget(1, 0, 1)).isGreaterThan(1);
        assertThat(ExternalLauncher.retryBudget(1_000, Long.MAX_VALUE / 2, 1 << 20)).isPositive();
    }
}
