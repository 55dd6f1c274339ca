package io.batchyard.registry.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.batchyard.api.ApiException;
import io.quarkus.runtime.configuration.MemorySize;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graphviz under one deadline: stand-in {@code dot} scripts that never read their input, never finish, flood their
 * diagnostics or answer without end are stopped with a 503 (code 216) in time, and none of their processes is left
 * running. Each case is bounded here too, so a renderer that waits for ever fails instead of holding the build.
 */
class DotRendererTest {

    /** More than a pipe holds: a dot that never reads its input blocks whoever writes all of it at once. */
    private static final String BIG_DOT = "digraph{\n" + "a->b;\n".repeat(40_000) + "}\n";
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aDotThatNeverReadsNorFinishesIsStoppedAtTheDeadlineWithItsChildren() throws Exception {
        Path dot = script("hung", """
                echo $$ > "%1$s/pid"
                sleep 300 &
                echo $! > "%1$s/child"
                wait
                """.formatted(dir));
        DotRenderer renderer = renderer(dot, Duration.ofSeconds(1), 1 << 20);
        long started = System.nanoTime();
        assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> renderer.svg(BIG_DOT))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(216);
                    assertThat(e.status()).isEqualTo(503);
                })
                .hasMessageContaining("did not finish within PT1S"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertGone(pid("pid"));
        assertGone(pid("child"));
    }

    @Test
    void diagnosticsWithoutEndNeitherBlockTheAnswerNorOutliveTheDeadline() throws Exception {
        // 5 MB on stderr before the answer: a renderer reading only stdout waits for ever on a full stderr pipe
        Path chatty = script("chatty", """
                cat > /dev/null
                head -c 5000000 /dev/zero | tr '\\0' 'w' >&2
                echo '<svg>chatty</svg>'
                """);
        assertThat(assertTimeoutPreemptively(BOUND, () -> renderer(chatty, Duration.ofSeconds(20), 1 << 20)
                .svg(BIG_DOT))).isEqualTo("<svg>chatty</svg>\n");

        // stderr flooded for ever, no answer: stopped at the deadline
        Path flood = script("flood", """
                echo $$ > "%s/pid"
                exec yes 'warning: flood' >&2
                """.formatted(dir));
        assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> renderer(flood, Duration.ofSeconds(1),
                1 << 20).svg("digraph{a->b}"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(216))
                .hasMessageContaining("did not finish"));
        assertGone(pid("pid"));
    }

    @Test
    void anAnswerPastTheSizeLimitIsRefusedAtOnce() throws Exception {
        Path huge = script("huge", """
                echo $$ > "%s/pid"
                cat > /dev/null
                exec yes '<g>svg without end</g>'
                """.formatted(dir));
        long started = System.nanoTime();
        assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> renderer(huge, Duration.ofSeconds(20),
                1 << 20).svg("digraph{a->b}"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(216))
                .hasMessageContaining("more than 1048576 bytes"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("well before the deadline")
                .isLessThan(Duration.ofSeconds(10));
        assertGone(pid("pid"));
    }

    @Test
    void aFailingOrMissingDotIsA503AndTheRealOneRenders() throws Exception {
        Path failing = script("failing", """
                cat > /dev/null
                echo 'Error: <stdin>: syntax error in line 1 near x' >&2
                exit 1
                """);
        assertThatThrownBy(() -> renderer(failing, Duration.ofSeconds(20), 1 << 20).svg("x"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(216))
                .hasMessageContaining("exit code 1").hasMessageContaining("syntax error in line 1");
        assertThatThrownBy(() -> renderer(dir.resolve("no-such-dot"), Duration.ofSeconds(20), 1 << 20).svg("x"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(216))
                .hasMessageContaining("not installed");
        DotRenderer real = new DotRenderer("dot", Duration.ofSeconds(20), new MemorySize(BigInteger.valueOf(1 << 20)));
        assertThat(real.svg("digraph{a->b}")).contains("<svg");
    }

    // ---- helpers ----

    private static DotRenderer renderer(Path dot, Duration deadline, long maxOutput) {
        return new DotRenderer(dot.toString(), deadline, new MemorySize(BigInteger.valueOf(maxOutput)));
    }

    private Path script(String name, String body) throws IOException {
        Path script = dir.resolve(name);
        Files.writeString(script, "#!/bin/sh\n" + body);
        assertThat(script.toFile().setExecutable(true)).isTrue();
        return script;
    }

    private long pid(String file) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(file)).trim());
    }

    /** The process ends (or is left a zombie, which runs nothing) within a few seconds of the kill. */
    private static void assertGone(long pid) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (running(pid) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertThat(running(pid)).as("process %d still running", pid).isFalse();
    }

    private static boolean running(long pid) throws IOException {
        Path stat = Path.of("/proc/" + pid + "/stat");
        if (!Files.exists(stat)) {
            return false;
        }
        try {
            String s = Files.readString(stat);
            // the state follows the command name, which is in parentheses
            return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException gone) {
            return false;
        }
    }
}
