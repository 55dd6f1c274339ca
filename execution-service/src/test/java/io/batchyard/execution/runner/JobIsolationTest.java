package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.teststack.ProcessTrees;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job is somebody else's code: run on this host it must not read the service's environment
 * ({@code /proc/<service pid>/environ}: database password, secrets key, client secret) nor the service's key files.
 * As root the service starts every job command as the dedicated user; a service that cannot switch launches nothing.
 */
@ExecutionTest
@TestProfile(JobIsolationTest.Isolated.class)
class JobIsolationTest extends RunnerTestSupport {

    static final String USER = "batchyard-job";
    /** Readable by everybody on the way down, as a real script directory is; a temporary directory is not. */
    static final Path BASE = Path.of(System.getProperty("java.io.tmpdir"), "batchyard-job-isolation");

    /** The runner as configured in production: switch to the job user, never accept running as the service's own. */
    public static class Isolated implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            ensureUser();
            return Map.of("batchyard.runner.switch-user", "true",
                    "batchyard.runner.shared-user-accepted", "false",
                    "batchyard.runner.job-user", USER,
                    "batchyard.runner.script-dir", open(BASE.resolve("scripts")).toString(),
                    "batchyard.runner.work-dir", open(BASE.resolve("work")).toString());
        }
    }

    @Test
    void aJobReadsNeitherTheServiceEnvironmentNorItsKeyFiles() throws Exception {
        Path keyFile = scripts.workDir().resolve("service-" + RunnerFixtures.id() + ".key");
        Files.writeString(keyFile, "the service's secret\n");
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
        long servicePid = ProcessHandle.current().pid();
        open(f.dir);
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String probe = f.script("probe" + p + ".sh", String.join("\n",
                "echo \"uid=$(id -u) home=$HOME\"",
                "if cat /proc/" + servicePid + "/environ >/dev/null 2>&1; then echo 'LEAK: service environ'; fi",
                "if cat " + keyFile + " >/dev/null 2>&1; then echo 'LEAK: key file'; fi",
                "if [ -r /proc/" + servicePid + "/environ ]; then echo 'LEAK: environ readable'; fi",
                "echo probed"));
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", probe).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");

        JobUser.Decision decision = scripts.jobUser();
        if (JobUser.effectiveUid() != 0) {
            // Not root: no switch is possible, so nothing is launched and /why says why.
            assertThat(decision.refusal()).isPresent();
            assertThat(launcher.runOnce(p, NOW).claimed()).isEmpty();
            assertThat(f.status(p, "b1")).isEqualTo("INIT");
            List<String> codes = given().get("/why/" + p).then().statusCode(200).extract().jsonPath()
                    .getList("reasons.code");
            assertThat(codes).contains("LAUNCHER_REFUSED");
            return;
        }
        JobUser.Account account = decision.account().orElseThrow(() -> new AssertionError(decision.describe()));
        assertThat(account.name()).isEqualTo(USER);

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        List<String> lines = given().queryParam("limit", 500).get("/runs/" + outcome.instanceExecId() + "/log").then()
                .statusCode(200).extract().jsonPath().getList("items.line");
        assertThat(lines).contains("uid=" + account.uid() + " home=" + account.home(), "probed");
        assertThat(lines).noneMatch(l -> l.startsWith("LEAK"));
        assertThat(given().get("/why/" + p).then().statusCode(200).extract().jsonPath().getString("launcher"))
                .contains("as user " + USER);
    }

    /** Creates the job user as an administrator would (run.sh does the same) when the tests run as root. */
    static void ensureUser() {
        if (JobUser.effectiveUid() != 0 || JobUser.lookup(USER).isPresent()) {
            return;
        }
        try {
            Process p = new ProcessBuilder("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                    "--shell", "/usr/sbin/nologin", USER).inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("useradd " + USER + " failed with " + p.exitValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Path open(Path dir) {
        try {
            Files.createDirectories(dir);
            for (Path d = dir; d != null && d.startsWith(BASE.getParent()) && !d.equals(BASE.getParent()); d = d.getParent()) {
                Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
