package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Tools outside the JVM that the tests run (node, npm): finding them, and running them to their end. */
final class ExternalCommands {

    private ExternalCommands() {
    }

    /** Whether {@code command} runs here at all: it answers {@code --version} with exit 0 within 30 s. */
    static boolean runs(String command) {
        try {
            Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What a command printed and how it ended. */
    record Result(int exit, String out, String err) {
    }

    /**
     * Runs {@code command} in {@code dir}, its standard output and error each going to a temporary file; fails if it
     * does not end within {@code timeout}, whatever its exit code.
     */
    static Result run(Path dir, List<String> command, Duration timeout) throws IOException, InterruptedException {
        File out = Files.createTempFile("k8s-command", ".out").toFile();
        File err = Files.createTempFile("k8s-command", ".err").toFile();
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out)
                    .redirectError(err).start();
            boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            Result result = new Result(ended ? process.exitValue() : -1,
                    Files.readString(out.toPath(), StandardCharsets.UTF_8),
                    Files.readString(err.toPath(), StandardCharsets.UTF_8));
            assertThat(ended).as(command + " did not end within " + timeout + ":\n" + result.out + result.err).isTrue();
            return result;
        } finally {
            Files.deleteIfExists(out.toPath());
            Files.deleteIfExists(err.toPath());
        }
    }

    /** Runs {@code command} like {@link #run} and fails unless it exits 0; prints what it printed. */
    static Result runOk(Path dir, List<String> command, Duration timeout) throws IOException, InterruptedException {
        Result result = run(dir, command, timeout);
        System.out.println(String.join(" ", command) + "\n" + result.out + result.err);
        assertThat(result.exit).as(command + ":\n" + result.out + result.err).isZero();
        return result;
    }
}
