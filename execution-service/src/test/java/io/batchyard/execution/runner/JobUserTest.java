package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** As whom a job's commands run: the dedicated user when the service can switch, else nothing unless accepted. */
class JobUserTest {

    static final Optional<JobUser.Account> JOB = Optional.of(new JobUser.Account("batchyard-job", 998, 997, "/nonexistent"));
    static final Optional<String> SETPRIV = Optional.of("/usr/bin/setpriv");

    @Test
    void rootSwitchesToTheJobUserThroughSetprivWithoutGroupsOrNewPrivileges() {
        JobUser.Decision d = JobUser.decide(true, "batchyard-job", false, 0, JOB, SETPRIV);
        assertThat(d.refusal()).isEmpty();
        assertThat(d.account()).isEqualTo(JOB);
        assertThat(d.describe()).isEqualTo("as user batchyard-job (uid 998, gid 997)");
    }

    @Test
    void aServiceThatCannotSwitchRefusesUnlessTheRiskIsAccepted() {
        assertThat(JobUser.decide(true, "batchyard-job", false, 1000, JOB, SETPRIV).refusal()).get().asString()
                .contains("uid 1000, not root").contains("batchyard.runner.shared-user-accepted=true");
        assertThat(JobUser.decide(true, "batchyard-job", false, 0, Optional.empty(), SETPRIV).refusal()).get()
                .asString().contains("user batchyard-job does not exist").contains("useradd");
        assertThat(JobUser.decide(true, "batchyard-job", false, 0, JOB, Optional.empty()).refusal()).get().asString()
                .contains("setpriv");
        assertThat(JobUser.decide(true, "root", false, 0, Optional.of(new JobUser.Account("root", 0, 0, "/root")),
                SETPRIV).refusal()).get().asString().contains("is root");
        assertThat(JobUser.decide(false, "batchyard-job", false, 0, JOB, SETPRIV).refusal()).get().asString()
                .contains("switch-user is off");

        JobUser.Decision accepted = JobUser.decide(true, "batchyard-job", true, 1000, JOB, SETPRIV);
        assertThat(accepted.refusal()).isEmpty();
        assertThat(accepted.account()).isEmpty();
        assertThat(accepted.describe()).startsWith("as the service's own user").contains("shared-user-accepted is on");
    }

    @Test
    void theSwitchedCommandKeepsItsArgumentVectorAndGetsTheJobUsersHome() {
        JobUser user = new JobUser(null) {
            @Override
            public Decision decision() {
                return JobUser.decide(true, "batchyard-job", false, 0, JOB, SETPRIV);
            }
        };
        assertThat(user.command(List.of("/scripts/load.sh", "a b", "$(id)"))).containsExactly("/usr/bin/setpriv",
                "--reuid=998", "--regid=997", "--clear-groups", "--no-new-privs", "--", "/scripts/load.sh", "a b",
                "$(id)");
        assertThat(user.environment(new java.util.HashMap<>(java.util.Map.of("HOME", "/root", "PATH", "/bin"))))
                .containsEntry("HOME", "/nonexistent").containsEntry("PATH", "/bin");
    }

    @Test
    void withoutASwitchTheCommandIsUnchanged() {
        JobUser user = new JobUser(null) {
            @Override
            public Decision decision() {
                return JobUser.decide(false, "batchyard-job", true, 0, JOB, SETPRIV);
            }
        };
        assertThat(user.command(List.of("/scripts/load.sh"))).containsExactly("/scripts/load.sh");
    }
}
