package io.batchyard.lineage.render;

import static io.batchyard.lineage.LineageError.GRAPHVIZ_UNAVAILABLE;

import io.batchyard.api.CommonErrors;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/** Renders DOT to SVG by piping it through the Graphviz {@code dot} binary. */
@ApplicationScoped
public class Graphviz {

    private static final Logger LOG = Logger.getLogger(Graphviz.class);
    private static final long TIMEOUT_SECONDS = 30;

    private final String binary;

    public Graphviz(@ConfigProperty(name = "batchyard.lineage.dot-binary", defaultValue = "dot") String binary) {
        this.binary = binary;
    }

    public String svg(String dot) {
        Process process;
        try {
            process = new ProcessBuilder(List.of(binary, "-Tsvg")).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw GRAPHVIZ_UNAVAILABLE.exception("the Graphviz 'dot' binary is not installed on this server; "
                    + "use format=dot and render it yourself");
        }
        try {
            // Read stdout while writing stdin: a large graph would otherwise fill the pipe and dead-lock.
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
            try (OutputStream in = process.getOutputStream()) {
                in.write(dot.getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw CommonErrors.INTERNAL.exception("rendering the graph took longer than " + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                LOG.warnf("dot exited with %d", process.exitValue());
                throw CommonErrors.INTERNAL.exception("Graphviz could not render the graph");
            }
            return new String(out.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), StandardCharsets.UTF_8);
        } catch (IOException | java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            process.destroyForcibly();
            throw CommonErrors.INTERNAL.exception("Graphviz could not render the graph");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw CommonErrors.INTERNAL.exception("interrupted while rendering the graph");
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
