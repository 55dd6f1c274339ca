package io.batchyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.client.BatchyardClient;
import io.batchyard.client.ProblemException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Backfills on execution-service: plan one (which runs a restatement makes wrong, in levels, with why and how long),
 * start it from the plan, follow it, pause, resume or cancel it.
 */
final class BackfillCommands {

    private BackfillCommands() {
    }

    static final class Modes extends ArrayList<String> {
        Modes() {
            super(List.of("all", "failed", "missing"));
        }
    }

    @Command(name = "backfill", mixinStandardHelpOptions = true,
            description = "Re-run restated roots and everything downstream that consumed their batches, in order.",
            subcommands = {Preview.class, Run.class, Status.class, Pause.class, Resume.class, Cancel.class})
    static class Backfill {
    }

    @Command(name = "preview", mixinStandardHelpOptions = true,
            description = "Plan a backfill without changing anything (POST /backfills/preview); prints the plan id.")
    static class Preview extends Call {
        @Option(names = "--root", required = true, split = ",", paramLabel = "PID",
                description = "the restated jobs (parents)")
        List<Long> roots;

        @Option(names = "--batch", split = ",", paramLabel = "BATCH_ID", description = "the restated batches")
        List<Long> batches;

        @Option(names = "--from", paramLabel = "BUCKET", description = "the first bucket of the range")
        String from;

        @Option(names = "--to", paramLabel = "BUCKET", description = "the last bucket of the range")
        String to;

        @Option(names = "--mode", paramLabel = "MODE", completionCandidates = Modes.class,
                description = "${COMPLETION-CANDIDATES}: which of the roots' buckets to redo (default all)")
        String mode;

        @Option(names = "--no-cascade", description = "only the roots, not what consumed their output")
        boolean noCascade;

        @Option(names = "--column", split = ",", paramLabel = "DB.TABLE.COLUMN",
                description = "the only columns of the roots' output that changed: jobs their column lineage does"
                        + " not reach are left out (pruned)")
        List<String> columns;

        @Override
        int run(BatchyardClient client, Output out) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("roots", roots.stream().map(pid -> columns == null ? Map.of("processId", pid)
                    : Map.of("processId", pid, "columns", columns)).toList());
            if (batches != null) {
                body.put("batchIds", batches);
            }
            if (from != null) {
                body.put("fromBucket", from);
            }
            if (to != null) {
                body.put("toBucket", to);
            }
            if (mode != null) {
                body.put("mode", mode);
            }
            if (noCascade) {
                body.put("cascade", false);
            }
            JsonNode plan = ask(client, "POST", "/backfills/preview", body);
            out.json(plan);
            planLines(plan).forEach(out::line);
            return ExitCodes.OK;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Start a backfill from a plan (POST /backfills); refused with the difference when what the "
                    + "plan read changed, unless --recompute.")
    static class Run extends Call {
        @Parameters(paramLabel = "PLAN_ID", description = "the plan, as preview printed it")
        String planId;

        @Option(names = "--recompute", description = "run the plan as it is now when the state changed since")
        boolean recompute;

        @Option(names = "--concurrency", paramLabel = "N", description = "runs in flight at once (default 2)")
        Integer concurrency;

        @Option(names = "--on-failure", paramLabel = "WHAT", description = "stop (default) or continue")
        String onFailure;

        @Override
        int run(BatchyardClient client, Output out) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("planId", planId);
            if (recompute) {
                body.put("recompute", true);
            }
            if (concurrency != null) {
                body.put("concurrency", concurrency);
            }
            if (onFailure != null) {
                body.put("onFailure", onFailure);
            }
            return print(out, ask(client, "POST", "/backfills", body));
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "A backfill's state and its plan level by level (GET /backfills/{id}).")
    static class Status extends Call {
        @Parameters(paramLabel = "BACKFILL_ID", description = "the backfill")
        String backfillId;

        @Override
        int run(BatchyardClient client, Output out) {
            return print(out, ask(client, "GET", "/backfills/" + backfillId, null));
        }
    }

    /** pause, resume and cancel: a POST without a body, answered with the backfill as status shows it. */
    abstract static class Move extends Call {
        @Parameters(paramLabel = "BACKFILL_ID", description = "the backfill")
        String backfillId;

        abstract String action();

        @Override
        int run(BatchyardClient client, Output out) {
            return print(out, ask(client, "POST", "/backfills/" + backfillId + "/" + action(), null));
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true, description = "No new run of the backfill starts.")
    static class Pause extends Move {
        @Override
        String action() {
            return "pause";
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused or failed backfill.")
    static class Resume extends Move {
        @Override
        String action() {
            return "resume";
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel a backfill for good.")
    static class Cancel extends Move {
        @Override
        String action() {
            return "cancel";
        }
    }

    /** The plan's summary, then one row per entry in the order they run. */
    static List<String> planLines(JsonNode plan) {
        List<String> lines = new ArrayList<>();
        int pruned = 0;
        for (JsonNode e : plan.path("entries")) {
            pruned += e.path("pruned").isTextual() ? 1 : 0;
        }
        lines.add("plan " + plan.path("planId").asText() + ": " + plan.path("entries").size() + " entries"
                + (pruned > 0 ? " (" + pruned + " pruned)" : "") + " in " + plan.path("levels").asInt() + " levels, estimated " + plan.path("estimatedMs").asLong() + " ms"
                + (plan.path("entriesWithoutEstimate").asInt() > 0
                        ? " (" + plan.path("entriesWithoutEstimate").asInt() + " without estimate)" : ""));
        List<Object[]> rows = new ArrayList<>();
        for (JsonNode e : plan.path("entries")) {
            List<String> chain = new ArrayList<>();
            for (JsonNode link : e.path("reason")) {
                chain.add(link.path("processId").asText());
            }
            rows.add(new Object[] {e.path("entryNo").asInt(), e.path("level").asInt(), e.path("processId").asLong(),
                    text(e.path("bucket")), text(e.path("replacedRunId")),
                    e.path("status").asText() + (e.path("pruned").isTextual() ? " PRUNED" : ""),
                    joined(e.path("inputBatchIds")), String.join(" > ", chain), text(e.path("estimatedMs"))});
        }
        lines.add(Table.of("ENTRY", "LEVEL", "PROCESS", "BUCKET", "REPLACES_RUN", "STATUS", "INPUTS", "REASON",
                "ESTIMATE_MS").rows(rows).render());
        for (JsonNode e : plan.path("entries")) {
            if (e.path("pruned").isTextual()) {
                lines.add("entry " + e.path("entryNo").asInt() + " pruned: " + e.path("pruned").asText());
            }
        }
        return lines;
    }

    /** Characters of a level's bar. */
    private static final int BAR = 20;

    /** A backfill as the service answered it (for scripts) or as {@link #statusLines} (for people). */
    private static int print(Call.Output out, JsonNode answer) {
        out.json(answer);
        statusLines(answer).forEach(out::line);
        return ExitCodes.OK;
    }

    /** The backfill's state, then each level's entries as a bar (filled as entries end). */
    static List<String> statusLines(JsonNode answer) {
        JsonNode b = answer.path("backfill");
        List<String> lines = new ArrayList<>();
        lines.add("backfill " + b.path("backfillId").asText() + ": " + b.path("state").asText() + " (plan "
                + b.path("planId").asText() + ", concurrency " + b.path("concurrency").asInt() + ", on failure "
                + b.path("onFailure").asText() + ")");
        Map<Integer, Integer> perLevel = new TreeMap<>();
        for (JsonNode e : answer.path("plan").path("entries")) {
            // a pruned entry never runs: it is in no bar
            if (!e.path("pruned").isTextual()) {
                perLevel.merge(e.path("level").asInt(), 1, Integer::sum);
            }
        }
        // where the entries are, once the backfill ran: ended ones fill the bar
        Map<Integer, JsonNode> progress = new TreeMap<>();
        for (JsonNode level : answer.path("progress").path("levels")) {
            progress.put(level.path("level").asInt(), level);
        }
        perLevel.forEach((level, n) -> {
            JsonNode p = progress.get(level);
            int succeeded = p == null ? 0 : p.path("succeeded").asInt();
            int failed = p == null ? 0 : p.path("failed").asInt();
            int skipped = p == null ? 0 : p.path("skipped").asInt();
            int running = p == null ? 0 : p.path("running").asInt();
            int ended = succeeded + failed + skipped;
            int filled = n == 0 ? 0 : Math.min(BAR, ended * BAR / n);
            lines.add("level " + level + " [" + "#".repeat(filled) + "-".repeat(BAR - filled) + "] " + ended + "/" + n
                    + (running > 0 ? ", " + running + " running" : "") + (failed > 0 ? ", " + failed + " failed" : "")
                    + (skipped > 0 ? ", " + skipped + " skipped" : ""));
        });
        answer.path("progress").path("entryRuns").forEach(e -> {
            if ("FAILED".equals(e.path("state").asText()) || "SKIPPED".equals(e.path("state").asText())) {
                lines.add("entry " + e.path("entryNo").asInt() + " " + e.path("state").asText() + ": "
                        + text(e.path("message")));
            }
        });
        return lines;
    }

    private static String text(JsonNode v) {
        return v.isMissingNode() || v.isNull() ? "-" : v.asText();
    }

    private static String joined(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values.isEmpty() ? "-" : String.join(",", values);
    }

    private static JsonNode ask(BatchyardClient client, String method, String path, Object body) {
        return client.call(client.settings().execution(), method, path, body).orElseThrow(() ->
                new ProblemException(0, null, null, "empty answer to " + method + " " + path));
    }
}
