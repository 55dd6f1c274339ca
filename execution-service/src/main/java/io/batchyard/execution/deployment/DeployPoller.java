package io.batchyard.execution.deployment;

import io.batchyard.api.access.Caller;
import io.batchyard.eventing.persistence.Blocking;
import io.batchyard.execution.runner.CommandResult;
import io.batchyard.execution.runner.RunnerDrain;
import io.batchyard.execution.runner.ScriptRunner;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * FetchDeploy: picks waiting deployments and runs each one's deployment script, {@code process-type-<N>.sh} of its
 * process type, from the runner's script directory with the runner's allow-listed environment. InitDeploy comes
 * before the script, HaltDeploy after a zero exit, TermDeploy with the reason otherwise (a missing script included).
 */
@ApplicationScoped
public class DeployPoller {

    private static final Logger LOG = Logger.getLogger(DeployPoller.class);
    /** The poller acts for nobody in particular: a deployment was checked when it was requested. */
    static final Caller SYSTEM = Caller.system("deploy-poller");

    private final DeploymentService deployments;
    private final ScriptRunner scripts;
    private final DeployConfig config;
    private final RunnerDrain drain;

    public DeployPoller(DeploymentService deployments, ScriptRunner scripts, DeployConfig config, RunnerDrain drain) {
        this.deployments = deployments;
        this.scripts = scripts;
        this.config = config;
        this.drain = drain;
    }

    @Scheduled(every = "${batchyard.deploy.poll-interval:PT10S}", delayed = "${batchyard.deploy.poll-interval:PT10S}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        // a replica that is shutting down starts nothing new; another one picks the rows up
        if (config.enabled() && !drain.draining()) {
            pollOnce();
        }
    }

    /** One poll: picks up to the batch size and deploys each in turn; answers the deployments as they ended. */
    public List<Deployment> pollOnce() {
        List<Deployment> ended = new ArrayList<>();
        for (Deployment picked : Blocking.await(() -> deployments.pick(config.batchSize()))) {
            try {
                ended.add(deploy(picked));
            } catch (RuntimeException e) {
                // one broken deployment must not keep the others of the batch from running
                LOG.errorf(e, "deployment %d of process %d could not be run", picked.deploymentId(), picked.processId());
            }
        }
        return ended;
    }

    private Deployment deploy(Deployment picked) {
        long id = picked.deploymentId();
        Blocking.await(() -> deployments.init(SYSTEM, id));
        String script = picked.deployScriptLocation();
        // only the runner's contract variables pass OsCommand's allow-list: never the service's own secrets
        Map<String, String> env = Map.of("BATCHYARD_DEPLOYMENT_ID", String.valueOf(id),
                "BATCHYARD_PROCESS_ID", String.valueOf(picked.processId()));
        CommandResult result = scripts.run(script, List.of(String.valueOf(id), String.valueOf(picked.processId())),
                env, config.timeout(), (stream, line) -> LOG.debugf("[deploy %d %s] %s: %s", id, script, stream, line));
        if (result.succeeded()) {
            return Blocking.await(() -> deployments.halt(SYSTEM, id));
        }
        String reason = result.started() && !result.stderr().isBlank()
                ? result.describe() + ": " + result.stderr().strip() : result.describe();
        return Blocking.await(() -> deployments.term(SYSTEM, id, reason));
    }
}
