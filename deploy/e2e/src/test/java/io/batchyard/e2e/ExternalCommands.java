package io.batchyard.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Tools outside the JVM that end-to-end tests run (node, npm): finding them, and running them to their end. */
final class ExternalCommands {

    private ExternalCommands() {
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code command} in {@code dir} with {@code env} added; returns its output, failing on a non-zero exit. */
    static String run(Path dir, List<String> command, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        return start(dir, command, env).await(timeout);
    }

    /** A command running alongside the test, for a test that has to act while it runs. */
    static final class Background {
        private final List<String> command;
        private final Process process;
        private final File log;

        private Background(List<String> command, Process process, File log) {
            this.command = command;
            this.process = process;
            this.log = log;
        }

        boolean alive() {
            return process.isAlive();
        }

        /** Waits for the end; returns the output, failing on a non-zero exit or on the timeout. */
        String await(Duration timeout) throws IOException, InterruptedException {
            boolean ended = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly();
            }
            String out = Files.readString(log.toPath(), StandardCharsets.UTF_8);
            System.out.println(String.join(" ", command) + "\n" + out);
            assertThat(ended).as(command + " did not end within " + timeout + ":\n" + out).isTrue();
            assertThat(process.exitValue()).as(command + ":\n" + out).isZero();
            return out;
        }
    }

    /** Starts {@code command} in {@code dir} with {@code env} added, its output going to a temporary file. */
    static Background start(Path dir, List<String> command, Map<String, String> env) throws IOException {
        File log = Files.createTempFile("e2e-command", ".log").toFile();
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log);
        pb.environment().putAll(env);
        return new Background(command, pb.start(), log);
    }
}
