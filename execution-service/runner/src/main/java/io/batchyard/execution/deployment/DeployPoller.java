package io.batchyard.execution.deployment;

import io.batchyard.api.access.Caller;
import io.batchyard.persistence.Blocking;
import io.batchyard.execution.runner.CommandResult;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunnerDrain;
import io.batchyard.execution.runner.ScriptRunner;
import io.batchyard.execution.runner.StepLaunchers;
import io.batchyard.execution.runner.StepGraph;
import io.batchyard.execution.runner.StepScripts;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.readmodel.ProcessDefinitionService;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * FetchDeploy: picks waiting deployments and runs each one's deployment script, {@code process-type-<N>.sh} of its
 * process type, from the runner's script directory with the runner's allow-listed environment. InitDeploy comes
 * before the script, HaltDeploy after a zero exit, TermDeploy with the reason otherwise. A stand-alone parent whose
 * process type has no script is deployed by the service itself (see {@link #deployStandAlone}); any other parent
 * without one fails, since only its script can bring its workflow to the orchestrator that is to run it.
 */
@ApplicationScoped
public class DeployPoller {

    private static final Logger LOG = Logger.getLogger(DeployPoller.class);
    /** The poller acts for nobody in particular: a deployment was checked when it was requested. */
    static final Caller SYSTEM = Caller.system("deploy-poller");

    private final DeploymentService deployments;
    private final ProcessDefinitionService definitions;
    private final ScriptRunner scripts;
    private final DeployConfig config;
    private final RunnerDrain drain;
    private final StepLaunchers launchers;

    public DeployPoller(DeploymentService deployments, ProcessDefinitionService definitions, ScriptRunner scripts,
                        DeployConfig config, RunnerDrain drain, StepLaunchers launchers) {
        this.deployments = deployments;
        this.definitions = definitions;
        this.scripts = scripts;
        this.config = config;
        this.drain = drain;
        this.launchers = launchers;
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
        if (!present(script)) {
            long pid = picked.processId();
            Optional<ProcessDefinitionRepository.Tree> tree = Blocking.await(() -> definitions.tree(pid));
            if (tree.isPresent() && tree.get().parent().workflowTypeId() == Planner.STAND_ALONE) {
                return deployStandAlone(id, script, tree.get());
            }
        }
        // only the runner's contract variables pass OsCommand's allow-list: never the service's own secrets
        Map<String, String> env = Map.of("BATCHYARD_DEPLOYMENT_ID", String.valueOf(id),
                "BATCHYARD_PROCESS_ID", String.valueOf(picked.processId()));
        CommandResult result = scripts.run(script, List.of(String.valueOf(id), String.valueOf(picked.processId())),
                env, config.timeout(), (stream, line) -> LOG.debugf("[deploy %d %s] %s: %s", id, script, stream, line));
        if (result.succeeded()) {
            return Blocking.await(() -> deployments.halt(SYSTEM, id));
        }
        String reason = result.started() && !result.stderr().isBlank()
                ? result.describe() + ": " + result.stderr().strip()
                : result.describe() + (present(script) ? "" : "; only a stand-alone parent (workflow type "
                        + Planner.STAND_ALONE + ") deploys without its process type's script");
        return Blocking.await(() -> deployments.term(SYSTEM, id, reason));
    }

    /**
     * A stand-alone parent has nothing to put anywhere: the runner runs its steps' scripts from the script directory
     * where they are. Deploying it without a script of its process type therefore checks what a launch will need,
     * the step graph and every step's script (and loop script) in the script directory, and succeeds with a note of
     * what was checked; it fails naming what is missing.
     */
    private Deployment deployStandAlone(long id, String script, ProcessDefinitionRepository.Tree tree) {
        long pid = tree.parent().processId();
        String itself = "no " + script + " in the script directory " + scripts.scriptDirectory()
                + ": execution-service deployed the stand-alone parent itself";
        String problem;
        int steps = 0;
        try {
            StepGraph graph = StepScripts.checked(tree, scripts);
            steps = graph.steps().size();
            List<String> absent = StepScripts.absent(graph, scripts, launchers.stepScriptsInScriptDirectory());
            problem = absent.isEmpty() ? null : "step scripts not found: " + String.join(", ", absent);
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        if (problem != null) {
            String reason = itself + " and found it cannot run: " + problem;
            LOG.infof("deployment %d of process %d failed: %s", id, pid, reason);
            return Blocking.await(() -> deployments.term(SYSTEM, id, reason));
        }
        String note = itself + (launchers.stepScriptsInScriptDirectory()
                ? ": the scripts of its " + steps + " step(s) are all there, where the runner runs them (nothing to copy)"
                : ": its " + steps + " step(s) run in the images their Jobs name (" + launchers.describe() + ")");
        LOG.infof("deployment %d of process %d: %s", id, pid, note);
        return Blocking.await(() -> deployments.halt(SYSTEM, id, note));
    }

    /** Whether the script is in the script directory; a name the runner refuses is left to fail when run. */
    private boolean present(String script) {
        try {
            return scripts.exists(script);
        } catch (IllegalArgumentException refused) {
            return true;
        }
    }
}
