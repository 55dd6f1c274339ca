package io.batchyard.execution.runner;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * Runs one OS process (a job's command, the trigger launcher hook's): stdout and stderr read on their own threads (a
 * full pipe would block the child), each line handed to the sink, the whole kept up to a cap for PIPEINOUT; killed
 * with its descendants when the timeout passes. A line reaches the sink cut at {@link #MAX_LINE_BYTES}, and what is
 * kept stops at {@link #KEEP_BYTES}: a command that prints without ever ending a line is never held whole in memory.
 * The command is an argument vector executed directly, never through a shell, so no argument is ever interpreted.
 * The process gets an environment built from nothing (a job: a few host settings and the runner's contract values),
 * never the service's own environment (which holds its database password and secrets key).
 */
public final class OsCommand {

    /** Receives each output line as it is read. */
    public interface LineSink {
        void line(String stream, String line);
    }

    /** Output kept in memory per stream, in bytes, for PIPEINOUT; beyond it only the run output has the rest. */
    static final int KEEP_BYTES = 4 * 1024 * 1024;

    /**
     * The longest line handed to the sink (the run output), in bytes of output: the rest of a longer line is read and
     * dropped there, and the line ends with {@code … [truncated N bytes]} saying how much. What is kept for PIPEINOUT
     * is the output as printed, within {@link #KEEP_BYTES}.
     */
    public static final int MAX_LINE_BYTES = 8 * 1024;

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
        LIVE.forEach(OsCommand::killTree);
    }

    /**
     * Kills a process and every process below it. The descendants are listed before the process dies: once it is
     * gone they belong to init and no longer show as its descendants, and a child keeping the output pipe open would
     * outlive the timeout.
     */
    private static void killTree(Process process) {
        List<ProcessHandle> below = process.descendants().toList();
        process.destroyForcibly();
        below.forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Runs {@code command} with exactly {@code env} as its environment, {@code input} on its standard input (null: none,
     * the input is closed at once), in {@code workDir} (null: the service's), killed with its descendants when
     * {@code timeout} passes. Blocks until then: never call it on an event-loop thread.
     */
    public static CommandResult exec(List<String> command, Map<String, String> env, Path workDir, byte[] input,
                                     Duration timeout, LineSink sink) {
        long start = System.nanoTime();
        Process process;
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            if (workDir != null) {
                pb.directory(workDir.toFile());
            }
            // environment() starts as a copy of the service's own: emptied before the given values go in.
            pb.environment().clear();
            pb.environment().putAll(env);
            process = pb.start();
        } catch (IOException e) {
            return CommandResult.notStarted("could not start " + command.get(0) + ": " + e.getMessage());
        }
        LIVE.add(process);
        try {
            return await(process, input, timeout, sink, start);
        } finally {
            LIVE.remove(process);
        }
    }

    private static CommandResult await(Process process, byte[] input, Duration timeout, LineSink sink, long start) {
        feed(process, input);
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
            killTree(process);
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

    /**
     * Writes the input on a thread of its own, then closes it: a child that does not read would block a writer once
     * the pipe is full, and the timeout must still apply.
     */
    private static void feed(Process process, byte[] input) {
        if (input == null || input.length == 0) {
            closeQuietly(process.getOutputStream());
            return;
        }
        Thread writer = new Thread(() -> {
            try (OutputStream in = process.getOutputStream()) {
                in.write(input);
            } catch (IOException e) {
                // the child closed its input early (or was killed): its exit code still decides
            }
        }, "batchyard-runner-stdin");
        writer.setDaemon(true);
        writer.start();
    }

    private static void closeQuietly(OutputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the child may already be gone; nothing to write to it anyway
        }
    }

    /**
     * A line as handed on: its first bytes as text and, when {@code dropped} bytes were cut off, a mark saying how
     * many; a character the cut went through is dropped whole rather than shown half.
     */
    static String capped(byte[] kept, long dropped) {
        if (dropped == 0) {
            return new String(kept, StandardCharsets.UTF_8);
        }
        int end = kept.length;
        int lead = end - 1;
        while (lead > 0 && lead > end - 4 && (kept[lead] & 0xC0) == 0x80) {
            lead--;
        }
        if (lead >= 0 && (kept[lead] & 0x80) != 0 && end - lead < utf8Length(kept[lead])) {
            end = lead;
        }
        return new String(kept, 0, end, StandardCharsets.UTF_8) + " … [truncated " + (dropped + kept.length - end)
                + " bytes]";
    }

    /** How many bytes the UTF-8 sequence that {@code lead} starts has (1 for anything that starts none). */
    private static int utf8Length(byte lead) {
        if ((lead & 0xE0) == 0xC0) {
            return 2;
        }
        if ((lead & 0xF0) == 0xE0) {
            return 3;
        }
        return (lead & 0xF8) == 0xF0 ? 4 : 1;
    }

    private static final class Reader extends Thread {
        private final InputStream in;
        private final String stream;
        private final LineSink sink;
        private final StringBuilder kept = new StringBuilder();
        /** Bytes of output in {@link #kept}; only the reading thread counts them. */
        private long keptBytes;

        Reader(InputStream in, String stream, LineSink sink) {
            super("batchyard-runner-" + stream);
            setDaemon(true);
            this.in = in;
            this.stream = stream;
            this.sink = sink;
        }

        /**
         * Splits the output into lines as {@code BufferedReader.readLine} does (a line ends at \n, \r or \r\n):
         * each line goes to the sink with at most {@link #MAX_LINE_BYTES} of it, and whole to what is kept while
         * that stays within {@link #KEEP_BYTES}.
         */
        @Override
        public void run() {
            byte[] chunk = new byte[8192];
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            long dropped = 0;
            boolean afterCr = false;
            try (InputStream s = in) {
                int n;
                while ((n = s.read(chunk)) != -1) {
                    for (int i = 0; i < n; i++) {
                        byte b = chunk[i];
                        if (b == '\n' && afterCr) {
                            afterCr = false;
                        } else if (b == '\n' || b == '\r') {
                            emit(line, dropped, whole);
                            line.reset();
                            whole.reset();
                            dropped = 0;
                            afterCr = b == '\r';
                        } else {
                            afterCr = false;
                            if (line.size() < MAX_LINE_BYTES) {
                                line.write(b);
                            } else {
                                dropped++;
                            }
                            if (keptBytes + whole.size() < KEEP_BYTES) {
                                whole.write(b);
                            }
                        }
                    }
                }
            } catch (IOException e) {
                // the process was killed while we read: what was read is kept
            }
            if (line.size() > 0 || dropped > 0) {
                emit(line, dropped, whole);
            }
        }

        private void emit(ByteArrayOutputStream bytes, long dropped, ByteArrayOutputStream whole) {
            sink.line(stream, capped(bytes.toByteArray(), dropped));
            if (keptBytes < KEEP_BYTES) {
                keptBytes += whole.size() + 1;
                synchronized (kept) {
                    kept.append(whole.toString(StandardCharsets.UTF_8)).append('\n');
                }
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
