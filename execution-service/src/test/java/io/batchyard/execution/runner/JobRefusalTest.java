package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.teststack.ProcessTrees;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A service that cannot run jobs as a user of their own, and was not told the risk is accepted, launches nothing: the
 * buckets wait, no script runs, and {@code /why} says why and what would change it.
 */
@ExecutionTest
@TestProfile(JobRefusalTest.NoSwitchNotAccepted.class)
class JobRefusalTest extends RunnerTestSupport {

    public static class NoSwitchNotAccepted implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("batchyard.runner.switch-user", "false", "batchyard.runner.shared-user-accepted", "false");
        }
    }

    @Test
    void nothingIsClaimedNorRunAndWhySaysWhy() {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        Path mark = f.file("ran-" + p);
        String step = f.script("step" + p + ".sh", "echo ran > " + mark);
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", step).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");

        Launcher.Cycle cycle = launcher.runOnce(p, NOW);
        assertThat(cycle.claimed()).isEmpty();
        assertThat(cycle.plan().reasons()).extracting(Planner.Reason::code).containsExactly("LAUNCHER_REFUSED");
        assertThat(f.status(p, "b1")).isEqualTo("INIT");
        assertThat(mark).doesNotExist();

        JsonPath why = given().get("/why/" + p).then().statusCode(200).extract().jsonPath();
        assertThat(why.getBoolean("wouldRun")).isFalse();
        assertThat(why.getString("reasons.find { it.code == 'LAUNCHER_REFUSED' }.message"))
                .contains("jobs would run as the service's own user")
                .contains("batchyard.runner.shared-user-accepted=true");
        assertThat(why.getString("launcher")).startsWith("local: ").contains("refused");
    }
}
