package io.batchyard.execution.runner;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * As whom the commands a job defines run on this host. A job is somebody else's code: run as the service's own user
 * it could read {@code /proc/<service pid>/environ} (the database password, the secrets key, the client secret), the
 * service's files, and reach whatever the service reaches. So when the service runs as root each command starts
 * through {@code setpriv} as {@code batchyard.runner.job-user}: its own uid and gid, no supplementary groups, no way to
 * gain privileges back. When that is impossible (the service is not root, the user does not exist, setpriv is
 * missing) no job command runs, unless {@code batchyard.runner.shared-user-accepted} says the risk is accepted.
 */
@ApplicationScoped
public class JobUser {

    private static final Logger LOG = Logger.getLogger(JobUser.class);

    /** A user the service can switch to. */
    public record Account(String name, long uid, long gid, String home) {
    }

    /**
     * The decision: the account to switch to (empty: the service's own), the setpriv to switch with, and why jobs
     * may not run at all (empty: they may).
     */
    public record Decision(Optional<Account> account, Optional<String> setpriv, Optional<String> refusal,
                           String describe) {
    }

    private final RunnerConfig config;
    private Decision decision;

    public JobUser(RunnerConfig config) {
        this.config = config;
    }

    @PostConstruct
    void init() {
        decision = decide(config.switchUser(), config.jobUser(), config.sharedUserAccepted(), effectiveUid(),
                lookup(config.jobUser()), findSetpriv());
        if (decision.refusal().isPresent()) {
            LOG.warnf("job commands will not run: %s", decision.refusal().get());
        } else if (decision.account().isEmpty()) {
            LOG.warnf("job commands run %s", decision.describe());
        } else {
            LOG.infof("job commands run %s", decision.describe());
        }
    }

    /** The rule, without the host: unit-tested. {@code uid} is the service's effective uid, -1 when unknown. */
    static Decision decide(boolean switchUser, String user, boolean sharedAccepted, long uid, Optional<Account> account,
                           Optional<String> setpriv) {
        String why;
        if (!switchUser) {
            why = "batchyard.runner.switch-user is off";
        } else if (uid != 0) {
            why = "the service runs as uid " + (uid < 0 ? "unknown" : uid) + ", not root, so it cannot switch to user "
                    + user;
        } else if (account.isEmpty()) {
            why = "user " + user + " does not exist (create it, e.g. useradd --system --no-create-home " + user
                    + ", or name another in batchyard.runner.job-user)";
        } else if (account.get().uid() == 0) {
            why = "user " + user + " is root";
        } else if (setpriv.isEmpty()) {
            why = "setpriv (util-linux) is not on this host";
        } else {
            return new Decision(account, setpriv, Optional.empty(), "as user " + user + " (uid " + account.get().uid()
                    + ", gid " + account.get().gid() + ")");
        }
        if (sharedAccepted) {
            return new Decision(Optional.empty(), Optional.empty(), Optional.empty(), "as the service's own user ("
                    + why + "; batchyard.runner.shared-user-accepted is on: a job can read the service's environment"
                    + " and files)");
        }
        return new Decision(Optional.empty(), Optional.empty(), Optional.of("jobs would run as the service's own user: "
                + why + "; set batchyard.runner.shared-user-accepted=true to accept that a job can read the service's"
                + " environment and files"), "refused");
    }

    public Decision decision() {
        return decision;
    }

    public Optional<String> refusal() {
        return decision().refusal();
    }

    /** {@code command} as it starts: through setpriv as the job user, or as it is. */
    public List<String> command(List<String> command) {
        Decision d = decision();
        if (d.account().isEmpty()) {
            return command;
        }
        Account a = d.account().get();
        List<String> wrapped = new ArrayList<>(List.of(d.setpriv().get(), "--reuid=" + a.uid(),
                "--regid=" + a.gid(), "--clear-groups", "--no-new-privs", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The job's environment with the job user's HOME in place of the service's. */
    public Map<String, String> environment(Map<String, String> env) {
        decision().account().ifPresent(a -> env.put("HOME", a.home()));
        return env;
    }

    /** The effective uid from /proc/self/status; -1 where there is none (not Linux). */
    static long effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debugf(e, "no effective uid");
        }
        return -1;
    }

    /** The user's passwd entry through getent (local files, LDAP, whatever the host's NSS says). */
    static Optional<Account> lookup(String user) {
        if (user == null || user.isBlank() || !user.matches("[A-Za-z0-9._][A-Za-z0-9._-]*")) {
            return Optional.empty();
        }
        CommandResult r = OsCommand.exec(List.of("getent", "passwd", user),
                Map.of("PATH", OsCommand.DEFAULT_PATH), null, null, Duration.ofSeconds(10), (stream, line) -> { });
        if (!r.succeeded()) {
            return Optional.empty();
        }
        String[] f = r.stdout().strip().split(":");
        if (f.length < 6) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Account(f[0], Long.parseLong(f[2]), Long.parseLong(f[3]), f[5]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> findSetpriv() {
        return List.of("/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv").stream()
                .filter(p -> Files.isExecutable(Path.of(p))).findFirst();
    }
}
