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
        File log = Files.createTempFile("e2e-command", ".log").toFile();
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log);
        pb.environment().putAll(env);
        Process p = pb.start();
        boolean ended = p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = Files.readString(log.toPath(), StandardCharsets.UTF_8);
        System.out.println("[" + dir.getFileName() + "] " + String.join(" ", command) + "\n" + out);
        assertThat(ended).as(command + " did not end within " + timeout + ":\n" + out).isTrue();
        assertThat(p.exitValue()).as(command + ":\n" + out).isZero();
        return out;
    }
}
