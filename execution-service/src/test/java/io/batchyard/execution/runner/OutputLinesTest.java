package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a command's output becomes lines: as a line reader splits it, each line handed on at a bounded length, while
 * what is kept for the next script (PIPEINOUT) is the output as printed, within its own bound.
 */
class OutputLinesTest {

    private static CommandResult run(String shell, List<String> lines) {
        CommandResult r = OsCommand.exec(List.of("/bin/sh", "-c", shell), Map.of("PATH", "/usr/bin:/bin"), null, null,
                Duration.ofSeconds(60), (stream, line) -> {
                    if (stream.equals("stdout")) {
                        lines.add(line);
                    }
                });
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        return r;
    }

    private static List<String> printed(String shell) {
        List<String> lines = new ArrayList<>();
        run(shell, lines);
        return lines;
    }

    @Test
    void linesEndAtNewlineCarriageReturnOrBoth() {
        assertThat(printed("printf 'a\\r\\nb\\rc\\n\\nd'")).containsExactly("a", "b", "c", "", "d");
    }

    @Test
    void aLineLongerThanTheCapIsCutAndSaysHowMuchWasDropped() {
        int total = 3 * 1024 * 1024;
        assertThat(printed("head -c " + total + " /dev/zero | tr '\\0' z; echo; echo next")).containsExactly(
                "z".repeat(OsCommand.MAX_LINE_BYTES) + " … [truncated " + (total - OsCommand.MAX_LINE_BYTES)
                        + " bytes]", "next");
        assertThat(printed("head -c " + OsCommand.MAX_LINE_BYTES + " /dev/zero | tr '\\0' z"))
                .containsExactly("z".repeat(OsCommand.MAX_LINE_BYTES));
    }

    @Test
    void whatIsKeptForTheNextScriptIsTheOutputAsPrintedUpToItsBound() {
        List<String> lines = new ArrayList<>();
        CommandResult r = run("head -c 100000 /dev/zero | tr '\\0' z; echo; echo next", lines);
        assertThat(lines.get(0)).endsWith("[truncated " + (100_000 - OsCommand.MAX_LINE_BYTES) + " bytes]");
        assertThat(r.stdout()).isEqualTo("z".repeat(100_000) + "\nnext\n");
        int total = OsCommand.KEEP_BYTES + 1024 * 1024;
        assertThat(run("head -c " + total + " /dev/zero | tr '\\0' z", new ArrayList<>()).stdout())
                .hasSize(OsCommand.KEEP_BYTES + 1);
    }

    @Test
    void aCharacterTheCutGoesThroughIsDroppedWhole() {
        byte[] kept = ("x".repeat(OsCommand.MAX_LINE_BYTES - 1) + "é").getBytes(StandardCharsets.UTF_8);
        byte[] cut = java.util.Arrays.copyOf(kept, OsCommand.MAX_LINE_BYTES);
        assertThat(OsCommand.capped(cut, 1)).isEqualTo("x".repeat(OsCommand.MAX_LINE_BYTES - 1)
                + " … [truncated 2 bytes]");
        byte[] whole = ("x".repeat(OsCommand.MAX_LINE_BYTES - 2) + "é").getBytes(StandardCharsets.UTF_8);
        assertThat(OsCommand.capped(whole, 5)).isEqualTo("x".repeat(OsCommand.MAX_LINE_BYTES - 2) + "é"
                + " … [truncated 5 bytes]");
        assertThat(OsCommand.capped("plain".getBytes(StandardCharsets.UTF_8), 0)).isEqualTo("plain");
    }
}
