package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code batchyard completion bash|zsh}: the generated script is sourced by the real shell, and its completion function
 * asked what it offers after a partial command line, as the shell asks it on Tab.
 */
class CompletionCommandTest {

    @Test
    void bashCompletesCommandsOptionsAndTheirValues(@TempDir Path dir) throws Exception {
        Path script = script(dir, "bash");
        assertThat(bash(script, "batchyard", "ru")).containsExactly("runs");
        assertThat(bash(script, "batchyard", "comp")).containsExactly("completion");
        assertThat(bash(script, "batchyard", "process-log", "l")).containsExactlyInAnyOrder("list", "last-value");
        assertThat(bash(script, "batchyard", "runs", "list", "--out")).containsExactly("--output");
        assertThat(bash(script, "batchyard", "runs", "list", "--output", "")).containsExactly("table", "json", "yaml");
        assertThat(bash(script, "batchyard", "workflow", "export", "12", "--format", ""))
                .containsExactly("oozie", "airflow", "dot", "svg");
        assertThat(bash(script, "batchyard", "completion", "")).containsExactly("bash", "zsh");
        assertThat(bash(script, "batchyard", "tri")).containsExactly("trigger");
        assertThat(bash(script, "batchyard", "trigger", "")).containsExactlyInAnyOrder("get", "set", "runs");
        assertThat(bash(script, "batchyard", "pa")).containsExactly("pause");
        assertThat(bash(script, "batchyard", "resume", "12", "--p")).containsExactly("--preview");
        assertThat(bash(script, "batchyard", "trigger", "set", "12", "--policy", ""))
                .containsExactly("each", "all", "any-of", "n-of", "all-with-timeout", "none");
        assertThat(bash(script, "batchyard", "trigger", "set", "12", "--grain", ""))
                .containsExactly("upstream", "hour", "day", "week", "month");
    }

    @Test
    void zshRegistersTheScriptThroughBashcompinitAndGetsTheSameCandidates(@TempDir Path dir) throws Exception {
        if (!onPath("zsh")) {
            System.out.println("CompletionCommandTest: zsh is not installed (apt-get install zsh): zsh case not run");
            return;
        }
        Path script = script(dir, "zsh");
        // As zsh's _bash_complete does on Tab: COMP_WORDS and COMP_CWORD from the line, then compgen -F <function>;
        // zsh itself then keeps the candidates that start with the word typed (here: the test, by prefix).
        String ask = """
                ask() {
                  local -a words COMP_WORDS; local CURRENT COMP_CWORD COMP_LINE COMP_POINT
                  words=("$@"); CURRENT=$#
                  COMP_WORDS=("${words[@]}"); COMP_CWORD=$((CURRENT - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                  compgen -F _complete_batchyard -- "${words[CURRENT]}"
                }
                """;
        List<String> registered = shell(List.of("zsh", "-f", "-c", "source \"$1\"; print -r -- ${_comps[batchyard]}",
                "zsh", script.toString()));
        assertThat(registered).containsExactly("_bash_complete -F _complete_batchyard -o default");
        List<String> commands = shell(List.of("zsh", "-f", "-c", "source \"$1\"; " + ask + "ask batchyard ru", "zsh",
                script.toString()));
        assertThat(commands.stream().filter(c -> c.startsWith("ru"))).containsExactly("runs");
        assertThat(commands).contains("completion", "init-job", "process-log");
        List<String> options = shell(List.of("zsh", "-f", "-c", "source \"$1\"; " + ask
                + "ask batchyard runs list --out", "zsh", script.toString()));
        assertThat(options.stream().filter(c -> c.startsWith("--out"))).containsExactly("--output");
        List<String> formats = shell(List.of("zsh", "-f", "-c", "source \"$1\"; " + ask
                + "ask batchyard runs list --output ''", "zsh", script.toString()));
        assertThat(formats).containsExactly("table", "json", "yaml");
    }

    @Test
    void theScriptsAndAnUnknownShell() {
        FakeService.Run bash = FakeService.run("completion", "bash");
        assertThat(bash.status()).isZero();
        assertThat(bash.out()).contains("function _complete_batchyard()")
                .endsWith("complete -F _complete_batchyard -o default batchyard batchyard.sh batchyard.bash\n");
        FakeService.Run zsh = FakeService.run("completion", "zsh");
        assertThat(zsh.out()).startsWith("# batchyard completion for zsh").endsWith(bash.out());
        assertThat(FakeService.run("completion", "fish").status()).isEqualTo(ExitCodes.USAGE);
    }

    private static Path script(Path dir, String shell) throws IOException {
        FakeService.Run r = FakeService.run("completion", shell);
        assertThat(r.status()).isZero();
        return Files.writeString(dir.resolve("batchyard." + shell), r.out(), StandardCharsets.UTF_8);
    }

    /** What bash's completion function puts in COMPREPLY for the words (the last one being completed). */
    private static List<String> bash(Path script, String... words) throws Exception {
        List<String> argv = new ArrayList<>(List.of("bash", "-c", "source \"$1\"; shift; COMP_WORDS=(\"$@\");"
                + " COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}; _complete_batchyard;"
                + " printf '%s\\n' \"${COMPREPLY[@]}\"", "bash", script.toString()));
        argv.addAll(Arrays.asList(words));
        return shell(argv);
    }

    /** Runs the shell and answers its non-empty output lines (stderr, e.g. compopt outside a Tab press, ignored). */
    private static List<String> shell(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", argv)).isZero();
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    private static boolean onPath(String command) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, command)));
    }
}
