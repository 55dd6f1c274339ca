package io.batchyard.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import picocli.CommandLine.Command;

/** {@code batchyard}: Batchyard's calls from a terminal or a shell step. */
@TopCommand
@Command(name = "batchyard", mixinStandardHelpOptions = true, versionProvider = BatchyardCommand.Version.class,
        description = "Batchyard's calls from a terminal or a shell step: the lifecycle, files, the process log, runs,"
                + " queues, why a job is not running, triggers (settings, runs, pause, resume), backfills, generated"
                + " workflows, importing a BDRE installation and pipelines as code (export, plan, apply).",
        subcommands = {LifecycleCommands.InitJob.class, LifecycleCommands.InitStep.class,
                LifecycleCommands.HaltStep.class, LifecycleCommands.TermStep.class, LifecycleCommands.HaltJob.class,
                LifecycleCommands.TermJob.class, RegisterFileCommand.class, ProcessLogCommands.class,
                ViewCommands.Runs.class, ViewCommands.Queue.class, ViewCommands.Why.class, ViewCommands.Workflow.class,
                DeadlineCommands.class,
                TriggerCommands.Trigger.class, TriggerCommands.Pause.class, TriggerCommands.Resume.class,
                BackfillCommands.Backfill.class,
                ImportCommands.class, PipelineCommands.Export.class, PipelineCommands.PlanCommand.class,
                PipelineCommands.Apply.class, CompletionCommand.class},
        footerHeading = "%nSettings and exit status:%n",
        footer = {"Each setting comes from its flag, else the environment",
                "(BATCHYARD_EXECUTION_URL, BATCHYARD_QUEUE_URL, BATCHYARD_REGISTRY_URL,",
                "BATCHYARD_TOKEN, BATCHYARD_TOKEN_FILE, BATCHYARD_OIDC_TOKEN_URL, _CLIENT_ID,",
                "_CLIENT_SECRET), else the config file (--config, BATCHYARD_CONFIG, else",
                "~/.config/batchyard/config.properties) with the client library's names",
                "(batchyard.execution.url, batchyard.token, ...).",
                "",
                "Exit status: 0 done; 1 refused with another code; 2 usage or settings;",
                "3 unreachable or unexpected answer; 4 not allowed (401/403, codes 12-14);",
                "5 not found; 11-24 lifecycle codes 101-114 (the code minus 90)."})
public class BatchyardCommand {

    /**
     * The jar's version (its manifest, which Quarkus writes), then each service's and whether it answers
     * ({@link ServiceVersions}); picocli formats each line, so a % in a reason is escaped.
     */
    static class Version implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return ServiceVersions.versionLines(new Connection()).stream().map(l -> l.replace("%", "%%"))
                    .toArray(String[]::new);
        }
    }
}
