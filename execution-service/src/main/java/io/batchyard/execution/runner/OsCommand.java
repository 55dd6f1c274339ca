package io.batchyard.execution.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs one OS process: stdout and stderr read on their own threads (a full pipe would block the child), each line
 * handed to the sink, the whole kept up to a cap for PIPEINOUT; killed with its descendants when the timeout passes.
 * The command is an argument vector executed directly, never through a shell, so no argument is ever interpreted.
 * The process gets an environment built from nothing: a few host settings and the runner's contract values, never
 * the service's own environment (which holds its database password and secrets key).
 */
public final class OsCommand {

    /** Receives each output line as it is read. */
    public interface LineSink {
        void line(String stream, String line);
    }

    /** Output kept in memory per stream; beyond it only the run output has the rest. */
    static final int KEEP_CHARS = 4 * 1024 * 1024;

    /** The only variables a job takes from the service's environment. */
    static final List<String> INHERITED = List.of("PATH", "HOME", "LANG", "TZ");

    /** PATH when the service has none. */
    static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

    private OsCommand() {
    }

    /**
     * A job's whole environment: {@link #INHERITED} from {@code service} (PATH defaulted), then the runner's contract
     * values, which are the PWM {@code PIPE*} variables and Batchyard's {@code BATCHYARD_*} ones; any other name in
     * {@code contract} is dropped.
     */
    static Map<String, String> jobEnvironment(Map<String, String> service, Map<String, String> contract) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : INHERITED) {
            String value = service.get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        env.putIfAbsent("PATH", DEFAULT_PATH);
        contract.forEach((name, value) -> {
            if ((name.startsWith("PIPE") || name.startsWith("BATCHYARD_")) && value != null) {
                env.put(name, value);
            }
        });
        return env;
    }

    /** The commands this JVM's runner started and that still run: what a shutdown past its grace period stops. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    /** Stops every command still running, with its children (a shutdown gave their runs to another runner). */
    static void stopAll() {
        for (Process process : LIVE) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    public static CommandResult run(List<String> command, Map<String, String> env, Path workDir, Duration timeout,
                                    LineSink sink) {
        long start = System.nanoTime();
        Process process;
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
            // environment() starts as a copy of the service's own: emptied before the job's values go in.
            pb.environment().clear();
            pb.environment().putAll(jobEnvironment(System.getenv(), env));
            process = pb.start();
        } catch (IOException e) {
            return CommandResult.notStarted("could not start " + command.get(0) + ": " + e.getMessage());
        }
        LIVE.add(process);
        try {
            return await(process, timeout, sink, start);
        } finally {
            LIVE.remove(process);
        }
    }

    private static CommandResult await(Process process, Duration timeout, LineSink sink, long start) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // the child may already be gone; nothing to write to it anyway
        }
        Reader out = new Reader(process.getInputStream(), "stdout", sink);
        Reader err = new Reader(process.getErrorStream(), "stderr", sink);
        out.start();
        err.start();
        boolean finished;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        out.join(Duration.ofSeconds(5));
        err.join(Duration.ofSeconds(5));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        return new CommandResult(finished ? process.exitValue() : -1, !finished, out.text(), err.text(),
                finished ? took : timeout, true);
    }

    private static final class Reader extends Thread {
        private final InputStream in;
        private final String stream;
        private final LineSink sink;
        private final StringBuilder kept = new StringBuilder();

        Reader(InputStream in, String stream, LineSink sink) {
            super("batchyard-runner-" + stream);
            setDaemon(true);
            this.in = in;
            this.stream = stream;
            this.sink = sink;
        }

        @Override
        public void run() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    sink.line(stream, line);
                    synchronized (kept) {
                        if (kept.length() < KEEP_CHARS) {
                            kept.append(line).append('\n');
                        }
                    }
                }
            } catch (IOException e) {
                // the process was killed while we read: what was read is kept
            }
        }

        void join(Duration d) {
            try {
                super.join(d.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        String text() {
            synchronized (kept) {
                return kept.toString();
            }
        }
    }
}
