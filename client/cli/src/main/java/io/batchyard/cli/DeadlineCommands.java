package io.batchyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.client.BatchyardClient;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import static io.batchyard.cli.ViewCommands.text;

/** Data deadlines of expected buckets: what is due, at risk or missed, and an operator's waiver. */
@Command(name = "deadlines", mixinStandardHelpOptions = true, description = "Data deadlines of expected buckets.",
        subcommands = {DeadlineCommands.ListDeadlines.class, DeadlineCommands.Waive.class})
class DeadlineCommands {

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Deadlines, soonest due first (GET /deadlines), of the processes you may read.")
    static class ListDeadlines extends Call {
        @Option(names = "--state", paramLabel = "STATE",
                description = "SET, AT_RISK, MET, MISSED, RECOVERED or WAIVED")
        String state;

        @Option(names = "--process-id", paramLabel = "ID", description = "of this parent only")
        Long processId;

        @Mixin
        Paging page;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode answer = client.deadlines(state, processId, page.limit, page.offset);
            out.json(answer);
            List<Object[]> rows = new ArrayList<>();
            answer.path("items").forEach(d -> rows.add(new Object[] {text(d, "deadlineId"), text(d, "processId"),
                    text(d, "bucket"), text(d, "kind"), text(d, "dueAt"), text(d, "state"), blocker(d)}));
            out.line(Table.of("DEADLINE", "PROCESS", "BUCKET", "KIND", "DUE", "STATE", "BLOCKER").rows(rows).render());
            return ExitCodes.OK;
        }

        /** What an AT_RISK or MISSED deadline waits for, with the estimate; a waiver's reason. */
        private static String blocker(JsonNode d) {
            if (!"-".equals(text(d, "waiveReason"))) {
                return "waived: " + text(d, "waiveReason");
            }
            String process = text(d, "blockerProcessId");
            return "-".equals(process) ? "-" : text(d, "blockerReason") + " (eta " + text(d, "eta") + ")";
        }
    }

    @Command(name = "waive", mixinStandardHelpOptions = true,
            description = "WAIVED: the deadline no longer counts (POST /deadlines/{id}/waive; execute permission).")
    static class Waive extends Call {
        @Parameters(index = "0", paramLabel = "DEADLINE_ID")
        long deadlineId;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why, kept on the event")
        String reason;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode answer = client.waiveDeadline(deadlineId, reason);
            out.json(answer);
            out.line("deadline " + text(answer, "deadlineId") + " of process " + text(answer, "processId") + " bucket "
                    + text(answer, "bucket") + ": " + text(answer, "state"));
            return ExitCodes.OK;
        }
    }
}
