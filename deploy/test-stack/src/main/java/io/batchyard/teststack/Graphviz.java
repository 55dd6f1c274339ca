package io.batchyard.teststack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Renders DOT with the real {@code dot} binary, so tests prove a graph is valid Graphviz, not just text. */
public final class Graphviz {

    /** What {@code dot -Tsvg} said about one graph. */
    public record Rendering(int exitCode, String svg, String warnings) {
    }

    private Graphviz() {
    }

    public static Rendering render(String dot) {
        try {
            Process p = new ProcessBuilder("dot", "-Tsvg").start();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            try (var in = p.getOutputStream()) {
                in.write(dot.getBytes(StandardCharsets.UTF_8));
            }
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("dot did not finish within 30 s");
            }
            return new Rendering(p.exitValue(), out.get(), err.get());
        } catch (IOException e) {
            throw new AssertionError("Graphviz 'dot' must be installed (Debian package graphviz)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
