package io.batchyard.registry.workflow;

import io.batchyard.registry.RegistryError;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Renders DOT to SVG with Graphviz's {@code dot}, under one deadline for the whole exchange: the DOT is written, and
 * the answer and the diagnostics are read, each on a thread of its own, so a {@code dot} that stops reading, never
 * closes its output or writes without end on either stream cannot hold the caller. At the deadline, or when the SVG
 * passes its size limit, {@code dot} and every process it started are killed. Every failure is a 503 with code 216,
 * never a thread left waiting.
 */
@ApplicationScoped
public class DotRenderer {

    /** How much of {@code dot}'s diagnostics a failure quotes; the rest is read and dropped. */
    static final int DIAGNOSTICS_KEPT = 4096;

    /**
     * The threads that feed and drain {@code dot}. They end when its pipes close, which the kill at the deadline
     * brings about; daemon threads, so none can keep the service from stopping.
     */
    private static final ExecutorService IO = Executors.newCachedThreadPool(new java.util.concurrent.ThreadFactory() {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "graphviz-io-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    });

    private final String command;
    private final Duration deadline;
    private final long maxOutput;

    public DotRenderer(@ConfigProperty(name = "batchyard.graphviz.dot", defaultValue = "dot") String command,
                       @ConfigProperty(name = "batchyard.graphviz.timeout", defaultValue = "PT20S") Duration deadline,
                       @ConfigProperty(name = "batchyard.graphviz.max-output", defaultValue = "16M")
                       MemorySize maxOutput) {
        this.command = command;
        this.deadline = deadline;
        this.maxOutput = maxOutput.asLongValue();
    }

    /** The SVG of {@code dot}; blocks for at most the deadline, so callers run it off the event loop. */
    public String svg(String dot) {
        long end = System.nanoTime() + deadline.toNanos();
        Process p;
        try {
            p = new ProcessBuilder(command, "-Tsvg").start();
        } catch (IOException e) {
            throw RegistryError.WORKFLOW_RENDERER.exception("Graphviz 'dot' is not installed or not runnable ("
                    + command + "); install the graphviz package or ask for format=dot");
        }
        Future<?> input = IO.submit(() -> feed(p.getOutputStream(), dot.getBytes(StandardCharsets.UTF_8)));
        Future<byte[]> output = IO.submit(() -> readAtMost(p.getInputStream(), maxOutput));
        Future<byte[]> diagnostics = IO.submit(() -> readHead(p.getErrorStream(), DIAGNOSTICS_KEPT));
        try {
            byte[] svg = output.get(left(end), TimeUnit.NANOSECONDS);
            if (svg == null) {
                throw RegistryError.WORKFLOW_RENDERER.exception("Graphviz dot wrote more than " + maxOutput
                        + " bytes of SVG (batchyard.graphviz.max-output); ask for format=dot");
            }
            if (!p.waitFor(left(end), TimeUnit.NANOSECONDS)) {
                throw timedOut();
            }
            String err = new String(diagnostics.get(left(end), TimeUnit.NANOSECONDS), StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw RegistryError.WORKFLOW_RENDERER.exception("Graphviz dot failed (exit code " + p.exitValue()
                        + "): " + err.lines().findFirst().orElse(""));
            }
            return new String(svg, StandardCharsets.UTF_8);
        } catch (TimeoutException e) {
            throw timedOut();
        } catch (ExecutionException e) {
            throw RegistryError.WORKFLOW_RENDERER.exception("reading Graphviz dot's answer failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RegistryError.WORKFLOW_RENDERER.exception("interrupted while rendering");
        } finally {
            // Whatever happened, nothing of this rendering outlives the call: a finished dot has nothing left to
            // kill, and the kill closes the pipes the three threads wait on.
            killTree(p);
            input.cancel(true);
        }
    }

    private RuntimeException timedOut() {
        return RegistryError.WORKFLOW_RENDERER.exception("Graphviz dot did not finish within " + deadline
                + " (batchyard.graphviz.timeout); it was stopped");
    }

    private static long left(long end) {
        return Math.max(0, end - System.nanoTime());
    }

    /** Kills {@code p} and what it started (found before it dies: its children are re-parented after). */
    static void killTree(Process p) {
        List<ProcessHandle> descendants = p.descendants().toList();
        p.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /** Writes the DOT; a dot that exits or closes its input early only ends the writing. */
    private static Void feed(OutputStream in, byte[] dot) {
        try (in) {
            in.write(dot);
        } catch (IOException e) {
            // Nothing to do: the exit code and the diagnostics say why dot stopped reading.
        }
        return null;
    }

    /** All of {@code in}, or null once it passes {@code limit} bytes (the reading stops there). */
    private static byte[] readAtMost(InputStream in, long limit) throws IOException {
        try (in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (out.size() + (long) n > limit) {
                    return null;
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        }
    }

    /** The first {@code kept} bytes of {@code in}, reading it to its end so the writer never blocks on it. */
    private static byte[] readHead(InputStream in, int kept) throws IOException {
        try (in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, Math.min(n, Math.max(0, kept - out.size())));
            }
            return out.toByteArray();
        }
    }
}
