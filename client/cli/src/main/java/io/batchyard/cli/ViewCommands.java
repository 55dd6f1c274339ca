package io.batchyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.client.BatchyardClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Read-only views for operators: runs, a step's queue, why a job is not running, a generated workflow. */
final class ViewCommands {

    private ViewCommands() {
    }

    /** A JSON field as text, "-" when absent or null. */
    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? "-" : v.asText();
    }

    @Command(name = "runs", mixinStandardHelpOptions = true, description = "Runs (instance executions).",
            subcommands = RunsList.class)
    static class Runs {
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Runs, newest first (GET /runs).")
    static class RunsList extends Call {
        @Option(names = "--process-id", paramLabel = "ID", description = "of this process only")
        Long processId;

        @Option(names = "--state", paramLabel = "STATE", description = "in this state (a name such as RUNNING or 1-8)")
        String state;

        @Mixin
        Paging page;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode answer = client.runs(processId, state, page.limit, page.offset);
            out.json(answer);
            List<Object[]> rows = new ArrayList<>();
            answer.path("items").forEach(r -> rows.add(new Object[] {text(r, "instanceExecId"), text(r, "processId"),
                    text(r, "state"), text(r, "startTs"), text(r, "endTs"), text(r, "targetBatchId"),
                    text(r, "retry"), failure(r)}));
            out.line(Table.of("RUN", "PROCESS", "STATE", "STARTED", "ENDED", "TARGET_BATCH", "RETRY", "FAILURE")
                    .rows(rows).render());
            return ExitCodes.OK;
        }

        private static String failure(JsonNode r) {
            String code = text(r, "failureCode");
            String why = text(r, "failureText");
            return "-".equals(code) && "-".equals(why) ? "-" : ("-".equals(code) ? "" : code + " ") + why;
        }
    }

    @Command(name = "queue", mixinStandardHelpOptions = true, description = "Batch consumption queues.",
            subcommands = QueueList.class)
    static class Queue {
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The batches offered to a step, oldest first (GET /queue).")
    static class QueueList extends Call {
        @Parameters(paramLabel = "SUB_PROCESS_ID", description = "the consuming step")
        long processId;

        @Option(names = "--state", paramLabel = "STATE", description = "batch state: 0 new, 1 processed, 2 accessed")
        String state;

        @Mixin
        Paging page;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode answer = client.queue(processId, state, page.limit, page.offset);
            out.json(answer);
            List<Object[]> rows = new ArrayList<>();
            answer.path("items").forEach(r -> rows.add(new Object[] {text(r, "queueId"), text(r, "sourceBatchId"),
                    text(r, "sourceProcessId"), text(r, "batchMarking"), text(r, "batchState"),
                    text(r, "targetBatchId"), text(r, "insertTs")}));
            out.line(Table.of("QUEUE_ID", "SOURCE_BATCH", "FROM_PROCESS", "MARKING", "STATE", "TARGET_BATCH",
                    "QUEUED").rows(rows).render());
            return ExitCodes.OK;
        }
    }

    @Command(name = "why", mixinStandardHelpOptions = true,
            description = "Why a job (or one bucket of it) is not running, and the buckets its trigger waits for with "
                    + "what is missing (GET /why).")
    static class Why extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Option(names = "--bucket", paramLabel = "BUCKET", description = "this bucket (e.g. 20240501)")
        String bucket;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode why = client.why(processId, bucket);
            out.json(why);
            boolean runs = why.path("wouldRun").asBoolean();
            out.line("process " + processId + (why.hasNonNull("bucket") ? " bucket " + why.get("bucket").asText() : "")
                    + (runs ? ": would run now" : ": would not run now"));
            if (why.path("nextBuckets").size() > 0) {
                List<String> next = new ArrayList<>();
                why.path("nextBuckets").forEach(b -> next.add(b.asText()));
                out.line("next buckets: " + String.join(", ", next));
            }
            why.path("reasons").forEach(r -> out.line("  " + text(r, "code") + ": " + text(r, "message")));
            TriggerCommands.waitingLines(why).forEach(out::line);
            return ExitCodes.OK;
        }
    }

    @Command(name = "workflow", mixinStandardHelpOptions = true, description = "Generated workflows.",
            subcommands = WorkflowExport.class)
    static class Workflow {
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "A parent's workflow as registry-service generates it, to stdout or a file.")
    static class WorkflowExport extends Call {
        enum Format { oozie, airflow, dot, svg }

        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "oozie",
                description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}; a stand-alone parent has only dot and svg)")
        Format format;

        // Not --output: that is every command's answer format; the workflow itself is in --format.
        @Option(names = {"-o", "--output-file"}, paramLabel = "FILE", description = "write it here instead of stdout")
        Path output;

        @Override
        int run(BatchyardClient client, Output out) throws Exception {
            String body = client.workflow(processId, format.name());
            if (output == null) {
                out.raw(body.endsWith("\n") ? body : body + "\n");
                return ExitCodes.OK;
            }
            Files.writeString(output, body, StandardCharsets.UTF_8);
            out.json(java.util.Map.of("processId", processId, "format", format.name(), "file", output.toString()));
            out.line("wrote " + output + " (" + format + ", " + body.length() + " characters)");
            return ExitCodes.OK;
        }
    }
}
