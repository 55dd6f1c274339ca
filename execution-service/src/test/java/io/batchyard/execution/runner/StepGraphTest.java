package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.readmodel.ProcessDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The step DAG, where a re-run resumes, the PWM environment and step commands, without a database. */
class StepGraphTest {

    static ProcessDefinition parent(long id, long... first) {
        return new ProcessDefinition(id, null, "p" + id, 1, true, List.of(), null, ids(first), false, 2, List.of());
    }

    static ProcessDefinition step(long id, long parent, long... next) {
        return new ProcessDefinition(id, parent, "s" + id, 12, true, List.of(), null, ids(next), false, 0,
                List.of(new ProcessDefinition.Property("script", "run", "step.sh")));
    }

    private static List<Long> ids(long... ids) {
        return java.util.Arrays.stream(ids).boxed().toList();
    }

    /** 1 → 2 → (3, 4) → 5 → parent. */
    private static StepGraph diamond() {
        return new StepGraph(parent(100, 2), List.of(step(2, 100, 3, 4), step(3, 100, 5), step(4, 100, 5), step(5, 100, 100)));
    }

    @Test
    void readyStepsFollowForksAndJoins() {
        StepGraph g = diamond();
        assertThat(g.ready(Set.of(), Set.of())).containsExactly(2L);
        assertThat(g.ready(Set.of(2L), Set.of(2L))).containsExactly(3L, 4L);
        assertThat(g.ready(Set.of(2L, 3L), Set.of(2L, 3L, 4L))).isEmpty();
        assertThat(g.ready(Set.of(2L, 3L, 4L), Set.of(2L, 3L, 4L))).containsExactly(5L);
        assertThat(g.ancestors(5)).containsExactlyInAnyOrder(2L, 3L, 4L);
    }

    @Test
    void badShapesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new StepGraph(parent(100, 2), List.of(step(2, 100, 3), step(3, 100, 2))))
                .hasMessageContaining("cycle");
        assertThatThrownBy(() -> new StepGraph(parent(100, 2), List.of(step(2, 100, 9))))
                .hasMessageContaining("not a live step");
        assertThatThrownBy(() -> new StepGraph(parent(100), List.of())).hasMessageContaining("no steps");
    }

    @Test
    void aRerunSkipsOnlySucceededStepsOnThePathToTheResumePoint() {
        StepGraph g = diamond();
        assertThat(ResumePlan.skipped(g, null, Set.of(2L, 3L))).isEmpty();
        assertThat(ResumePlan.skipped(g, 100L, Set.of(2L, 3L))).isEmpty();
        // 4 failed, 3 succeeded after 2: InitJob resumes at 5, yet 4 must run again.
        assertThat(ResumePlan.skipped(g, 5L, Set.of(2L, 3L))).containsExactlyInAnyOrder(2L, 3L);
        // resume at the fork step itself (it succeeded; its fork is the resume point)
        assertThat(ResumePlan.skipped(g, 2L, Set.of(2L))).containsExactly(2L);
    }

    @Test
    void pipeEnvSpillsLargeInputToAFile(@TempDir Path dir) throws Exception {
        Map<String, String> small = PipeEnv.of(7, "a.sh", new PipeEnv.Previous("out\n", "err\n"), 10, dir);
        assertThat(small).containsEntry("PIPEJOBID", "7").containsEntry("PIPEJOBSCRIPT", "a.sh")
                .containsEntry("PIPEINOUT", "out\n").containsEntry("PIPEERROR", "err\n").containsEntry("PIPEFILE", "");
        Map<String, String> big = PipeEnv.of(7, "a.sh", new PipeEnv.Previous("0123456789ABC", "e"), 10, dir);
        assertThat(big.get("PIPEINOUT")).isEmpty();
        assertThat(Files.readString(Path.of(big.get("PIPEFILE")))).isEqualTo("0123456789ABC");
    }

    @Test
    void stepCommandsComeFromScriptParamAndRunnerProperties() {
        ProcessDefinition s = new ProcessDefinition(2, 100L, "s2", 12, true, List.of(), null, List.of(100L), false, 0,
                List.of(new ProcessDefinition.Property("script", "run", "load.sh"),
                        new ProcessDefinition.Property("param", "1", "--table"), new ProcessDefinition.Property("param", "2", "t1"),
                        new ProcessDefinition.Property("runner", "loop", "eu| us |apac"),
                        new ProcessDefinition.Property("runner", "timeout-seconds", "30")));
        StepCommand c = StepCommand.of(s);
        assertThat(c.script()).isEqualTo("load.sh");
        assertThat(c.params()).containsExactly("--table", "t1");
        assertThat(c.loopValues()).containsExactly("eu", "us", "apac");
        assertThat(c.timeoutSeconds()).isEqualTo(30);
        assertThat(StepCommand.loopValues("")).isEmpty();
        ProcessDefinition noScript = new ProcessDefinition(3, 100L, "s3", 12, true, List.of(), null, List.of(), false, 0,
                List.of());
        assertThatThrownBy(() -> StepCommand.of(noScript)).hasMessageContaining("exactly one property in group 'script'");
    }

    /** Absolute paths used to be accepted; now only names inside the directory are (more in ScriptResolverTest). */
    @Test
    void scriptsResolveInsideTheScriptDirectoryOnly(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("x.sh"), "#!/bin/sh\n");
        ScriptResolver r = new ScriptResolver(dir);
        assertThat(r.resolve("x.sh")).contains(dir.toRealPath().resolve("x.sh"));
        assertThatThrownBy(() -> r.resolve(script.toString())).isInstanceOf(ScriptResolver.Refused.class)
                .hasMessageStartingWith("problem 410 ");
        assertThatThrownBy(() -> r.resolve("../x.sh")).isInstanceOf(ScriptResolver.Refused.class)
                .hasMessageStartingWith("problem 410 ");
        assertThat(r.resolve("missing.sh")).isEmpty();
    }
}
