package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The runner runs scripts from its script directory only, as argument vectors, with an allow-listed environment. */
@ExecutionTest
class RunnerConfinementTest extends RunnerTestSupport {

    /** A script outside the script directory that leaves a mark if it ever runs. */
    private Path outsider(String name, Path mark) throws Exception {
        Path outside = Files.createTempDirectory("batchyard-outside");
        Path script = outside.resolve(name);
        Files.writeString(script, "#!/bin/sh\necho ran >> " + mark + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private WorkflowExecution.Outcome runOneStep(String script, Path harmlessMark) {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id(), s2 = RunnerFixtures.id();
        // The harmless first step shows that a refusal stops the whole run, not only the refused step.
        String first = f.script("first" + p + ".sh", "echo ran >> " + harmlessMark);
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, s -> s.property("script", "run", first).next(s2))
                .step(s2, s -> s.property("script", "run", script).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");
        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(f.status(p, "b1")).isEqualTo("FAILED");
        return outcome;
    }

    @Test
    void anAbsoluteScriptPathIsRefusedAtLaunchWithItsCodeAndNothingRuns() throws Exception {
        Path mark = f.file("absolute-ran");
        Path first = f.file("first-ran");
        WorkflowExecution.Outcome outcome = runOneStep(outsider("abs.sh", mark).toString(), first);
        assertThat(outcome.bucketState()).isEqualTo(State.FAILED);
        assertThat(outcome.message()).startsWith("problem 410 ").contains("absolute path");
        assertThat(outcome.instanceExecId()).as("no run was started, so there is no run output").isNull();
        assertThat(mark).doesNotExist();
        assertThat(first).doesNotExist();
    }

    @Test
    void aDotDotPathIsRefusedAtLaunchWithItsCode() throws Exception {
        Path mark = f.file("dotdot-ran");
        Path script = outsider("up.sh", mark);
        String escape = f.scriptDir.relativize(f.dir).resolve(f.dir.relativize(script)).toString();
        assertThat(escape).contains("..");
        WorkflowExecution.Outcome outcome = runOneStep(escape, f.file("first-ran"));
        assertThat(outcome.message()).startsWith("problem 410 ").contains("'..'");
        assertThat(mark).doesNotExist();
        assertThat(f.file("first-ran")).doesNotExist();
    }

    @Test
    void aSymlinkLeadingOutOfTheScriptDirectoryIsRefusedAtLaunchWithItsCode() throws Exception {
        Path mark = f.file("symlink-ran");
        Path link = f.dir.resolve("innocent.sh");
        Files.createSymbolicLink(link, outsider("target.sh", mark));
        WorkflowExecution.Outcome outcome = runOneStep(f.scriptDir.relativize(link).toString(), f.file("first-ran"));
        assertThat(outcome.message()).startsWith("problem 411 ").contains("outside the script directory");
        assertThat(mark).doesNotExist();
        assertThat(f.file("first-ran")).doesNotExist();
    }

    @Test
    void runPoliciesAndBucketKeysRefuseScriptsOutsideTheDirectory() {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String step = f.script("ok" + p + ".sh", "true");
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", step).next(p)));
        for (Map<String, Object> policy : List.<Map<String, Object>>of(
                Map.of("hooks", Map.of("onInit", "/bin/true")),
                Map.of("hooks", Map.of("onError", "../x.sh")),
                Map.of("context", Map.of("script", "a/../../x.sh --all")),
                Map.of("dependencies", List.of(Map.of("script", "/usr/bin/test"))))) {
            given().contentType(ContentType.JSON).body(policy).put("/runner/processes/" + p).then()
                    .statusCode(422).contentType(containsString("application/problem+json")).body("code", equalTo(410));
        }
        given().contentType(ContentType.JSON).body(Map.of("script", "/etc/key.sh")).put("/runner/bucket-keys/Abs" + p)
                .then().statusCode(422).body("code", equalTo(410));
        given().get("/runner/processes/" + p).then().statusCode(404);
    }

    @Test
    void argumentsReachTheScriptAsTheyAreAndItsEnvironmentHoldsOnlyAllowedNames() throws Exception {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        Path envFile = f.file("env-" + p);
        Path argsFile = f.file("args-" + p);
        String step = f.script("env" + p + ".sh", "env > " + envFile + "; for a in \"$@\"; do echo \"[$a]\"; done > " + argsFile);
        String hostile = "$(touch " + f.file("injected-" + p) + "); echo `id` | x";
        f.register(ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, st -> st.property("script", "run", step).property("param", "1", hostile).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        assertThat(Files.readAllLines(argsFile)).containsExactly("[" + hostile + "]", "[b1]");
        assertThat(f.file("injected-" + p)).doesNotExist();

        Set<String> names = Files.readAllLines(envFile).stream().filter(l -> l.matches("[A-Za-z_][A-Za-z0-9_]*=.*"))
                .map(l -> l.substring(0, l.indexOf('='))).collect(Collectors.toSet());
        // PWD, SHLVL, OLDPWD and _ are set by the shell running the script, not handed over by the runner.
        Set<String> shellOwn = Set.of("PWD", "SHLVL", "OLDPWD", "_");
        assertThat(names).allMatch(n -> Set.of("PATH", "HOME", "LANG", "TZ").contains(n) || n.startsWith("PIPE")
                || n.startsWith("BATCHYARD_") || shellOwn.contains(n), "an allowed name");
        assertThat(names).contains("PATH", "PIPEJOBID", "PIPEJOBSCRIPT", "PIPEINOUT", "BATCHYARD_BUCKET",
                "BATCHYARD_PROCESS_ID", "BATCHYARD_INSTANCE_EXEC_ID");
        Set<String> serviceOnly = new HashSet<>(System.getenv().keySet());
        serviceOnly.removeAll(Set.of("PATH", "HOME", "LANG", "TZ"));
        serviceOnly.removeAll(shellOwn);
        assertThat(names).doesNotContainAnyElementsOf(serviceOnly);
    }
}
