package io.batchyard.cli;

import io.batchyard.client.BatchyardClient;
import io.batchyard.client.JobEnded;
import io.batchyard.client.JobStart;
import io.batchyard.client.StepStart;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The six lifecycle calls of execution-service, as a shell step or an operator makes them. */
final class LifecycleCommands {

    private LifecycleCommands() {
    }

    @Command(name = "init-job", mixinStandardHelpOptions = true,
            description = "InitJob: start (or retry) a run of a parent process and claim its steps' batches. "
                    + "Prints the run and the outputs a workflow reads (key=value).")
    static class InitJob extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Option(names = "--max-batch", paramLabel = "N", defaultValue = "1",
                description = "batches to claim per step (default ${DEFAULT-VALUE})")
        int maxBatch;

        @Override
        int run(BatchyardClient client, Output out) {
            JobStart run = client.initJob(processId, maxBatch);
            out.json(run);
            out.line("run " + run.instanceExecId() + " of process " + processId + " started" + (run.retry() ? " (a retry)"
                    : "") + ": target batch " + run.targetBatchId() + (run.lastRecoverableSpId() == null ? ""
                    : ", resumes at step " + run.lastRecoverableSpId()));
            run.outputs().forEach((k, v) -> out.line(k + "=" + (v == null ? "" : v)));
            return ExitCodes.OK;
        }
    }

    @Command(name = "init-step", mixinStandardHelpOptions = true,
            description = "InitStep: a step of the running parent starts.")
    static class InitStep extends Call {
        @Parameters(paramLabel = "SUB_PROCESS_ID", description = "the step")
        long subProcessId;

        @Override
        int run(BatchyardClient client, Output out) {
            StepStart step = client.initStep(subProcessId);
            out.json(step);
            out.line("step " + step.subProcessId() + " started: run " + step.subInstanceExecId());
            return ExitCodes.OK;
        }
    }

    @Command(name = "halt-step", mixinStandardHelpOptions = true,
            description = "HaltStep: the steps completed (each in turn, in its own transaction).")
    static class HaltStep extends Call {
        @Parameters(paramLabel = "SUB_PROCESS_ID", arity = "1..*", split = ",",
                description = "the steps (space- or comma-separated)")
        List<Long> subProcessIds;

        @Override
        int run(BatchyardClient client, Output out) {
            List<Long> halted = client.haltSteps(subProcessIds);
            out.json(Map.of("subProcessIds", halted));
            out.line("halted step" + (halted.size() == 1 ? " " : "s ")
                    + halted.stream().map(String::valueOf).collect(Collectors.joining(", ")));
            return ExitCodes.OK;
        }
    }

    @Command(name = "term-step", mixinStandardHelpOptions = true, description = "TermStep: the step failed.")
    static class TermStep extends Call {
        @Parameters(paramLabel = "SUB_PROCESS_ID", description = "the step")
        long subProcessId;

        @Override
        int run(BatchyardClient client, Output out) {
            client.termStep(subProcessId);
            out.json(Map.of("subProcessId", subProcessId, "state", "FAILED"));
            out.line("step " + subProcessId + " failed (TermStep)");
            return ExitCodes.OK;
        }
    }

    @Command(name = "halt-job", mixinStandardHelpOptions = true,
            description = "HaltJob: the run completed; its target batch goes to every downstream job.")
    static class HaltJob extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Option(names = "--batch-marking", paramLabel = "MARKING",
                description = "marking handed downstream with the batch (e.g. InitJob's target-batch-marking)")
        String batchMarking;

        @Override
        int run(BatchyardClient client, Output out) {
            JobEnded ended = client.haltJob(processId, batchMarking);
            out.json(ended);
            out.line(ended(ended));
            return ExitCodes.OK;
        }
    }

    @Command(name = "term-job", mixinStandardHelpOptions = true,
            description = "TermJob: the run failed; the next InitJob retries it from the last recoverable step.")
    static class TermJob extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Option(names = "--code", paramLabel = "N", description = "why, as a number (e.g. the failing exit code)")
        Integer code;

        @Option(names = "--text", paramLabel = "TEXT", description = "why, in words (at most 2000 characters)")
        String text;

        @Override
        int run(BatchyardClient client, Output out) {
            JobEnded ended = client.termJob(processId, code, text);
            out.json(ended);
            out.line(ended(ended));
            return ExitCodes.OK;
        }
    }

    static String ended(JobEnded e) {
        return "run " + e.instanceExecId() + " of process " + e.processId() + ": " + e.state()
                + (e.targetBatchId() == null ? "" : ", target batch " + e.targetBatchId())
                + (e.batchMarking() == null ? "" : ", marking " + e.batchMarking());
    }
}
