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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A parent's data-aware trigger on execution-service: its settings (which inputs, which policy, the bucket grain and
 * zone), its trigger runs with the batches each consumed, and pausing and resuming it.
 */
final class TriggerCommands {

    private TriggerCommands() {
    }

    /** The policies execution-service takes ({@code on-batch} and {@code all-enqueuers} are the old names). */
    static final class Policies extends ArrayList<String> {
        Policies() {
            super(List.of("each", "all", "any-of", "n-of", "all-with-timeout", "none"));
        }
    }

    static final class Grains extends ArrayList<String> {
        Grains() {
            super(List.of("upstream", "hour", "day", "week", "month"));
        }
    }

    @Command(name = "trigger", mixinStandardHelpOptions = true,
            description = "A parent's trigger: when its inputs' batches start a run (settings, trigger runs).",
            subcommands = {Get.class, SetSettings.class, Runs.class})
    static class Trigger {
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = "The parent's trigger settings and whether it is paused (GET /processes/{pid}/trigger).")
    static class Get extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode settings = ask(client, "GET", path(processId, ""), null);
            out.json(settings);
            settingsLines(settings).forEach(out::line);
            return ExitCodes.OK;
        }
    }

    @Command(name = "set", mixinStandardHelpOptions = true,
            description = "Replace the parent's trigger settings (PUT /processes/{pid}/trigger); an option left out "
                    + "takes the service's default.")
    static class SetSettings extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Option(names = "--policy", required = true, paramLabel = "POLICY", completionCandidates = Policies.class,
                description = "${COMPLETION-CANDIDATES}: a run per input, once every input is complete for a bucket, "
                        + "once one is, once N are, or all with a timeout")
        String policy;

        @Option(names = "--inputs", paramLabel = "PID", split = ",",
                description = "the upstream processes considered (default: every process enqueuing for its steps)")
        List<Long> inputs;

        @Option(names = "--n", paramLabel = "N", description = "n-of: how many inputs must be complete")
        Integer n;

        @Option(names = "--timeout", paramLabel = "DURATION",
                description = "all-with-timeout: ISO duration from the bucket's first input (e.g. PT2H)")
        String timeout;

        @Option(names = "--grain", paramLabel = "GRAIN", completionCandidates = Grains.class,
                description = "${COMPLETION-CANDIDATES}: the bucket a run covers (default upstream: the input's own)")
        String grain;

        @Option(names = "--zone", paramLabel = "ZONE",
                description = "the region whose calendar the buckets follow (e.g. Europe/Berlin; default the runner's)")
        String zone;

        @Option(names = "--no-coalesce", description = "a run per due input even while the bucket's run is pending")
        boolean noCoalesce;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode settings = ask(client, "PUT", path(processId, ""), body());
            out.json(settings);
            settingsLines(settings).forEach(out::line);
            return ExitCodes.OK;
        }

        /** The settings as the service names them; options left out are left out of the body too. */
        Map<String, Object> body() {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("policy", policy);
            putIfSet(b, "inputs", inputs);
            putIfSet(b, "n", n);
            putIfSet(b, "timeout", timeout);
            putIfSet(b, "grain", grain);
            putIfSet(b, "zone", zone);
            if (noCoalesce) {
                b.put("coalesce", false);
            }
            return b;
        }

        private static void putIfSet(Map<String, Object> b, String name, Object value) {
            if (value != null) {
                b.put(name, value);
            }
        }
    }

    @Command(name = "runs", mixinStandardHelpOptions = true,
            description = "The parent's trigger runs, newest first, with the batches each consumed "
                    + "(GET /processes/{pid}/trigger/runs).")
    static class Runs extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Mixin
        Paging page;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode answer = ask(client, "GET", path(processId, "/runs?limit=" + page.limit + "&offset="
                    + page.offset), null);
            out.json(answer);
            out.line(runsTable(answer.path("items")));
            if (answer.has("total") && answer.path("total").asLong() > answer.path("items").size()) {
                out.line(answer.path("items").size() + " of " + answer.path("total").asLong()
                        + " (--limit, --offset for more)");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = "Pause the parent's trigger: inputs keep being recorded and due buckets wait; nothing "
                    + "starts until resume.")
    static class Pause extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Override
        int run(BatchyardClient client, Output out) {
            JsonNode settings = ask(client, "POST", path(processId, "/pause"), null);
            out.json(settings);
            out.line("process " + processId + " paused; due buckets wait for resume");
            return ExitCodes.OK;
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Resume the parent's trigger: start every due bucket oldest first, or with --skip only the "
                    + "newest (the older ones are skipped; their batches stay queued). --preview prints what it "
                    + "would do without resuming.")
    static class Resume extends Call {
        @Parameters(paramLabel = "PROCESS_ID", description = "the parent process")
        long processId;

        @Option(names = "--skip", description = "start only the newest due bucket, skip the older ones")
        boolean skip;

        @Option(names = "--preview", description = "only show what resuming would start and skip")
        boolean preview;

        @Override
        int run(BatchyardClient client, Output out) {
            String mode = skip ? "skip" : "catch-up";
            JsonNode answer = preview
                    ? ask(client, "GET", path(processId, "/resume-preview?mode=" + mode), null)
                    : ask(client, "POST", path(processId, "/resume"), Map.of("mode", mode));
            out.json(answer);
            resumeLines(answer, preview).forEach(out::line);
            return ExitCodes.OK;
        }
    }

    // ---- rendering for people (the services' answers as they come for --output json|yaml) ----

    static List<String> settingsLines(JsonNode s) {
        List<String> lines = new ArrayList<>();
        String policy = ViewCommands.text(s, "policy");
        StringBuilder head = new StringBuilder("process " + ViewCommands.text(s, "processId") + ": policy " + policy);
        if ("n-of".equals(policy)) {
            head.append(" (n ").append(ViewCommands.text(s, "n")).append(')');
        }
        if ("all-with-timeout".equals(policy)) {
            head.append(" (timeout ").append(ViewCommands.text(s, "timeout")).append(')');
        }
        if (s.path("paused").asBoolean()) {
            head.append(", PAUSED");
        }
        lines.add(head.toString());
        lines.add("inputs: " + (s.path("inputs").isArray() && s.path("inputs").size() > 0 ? join(s.path("inputs"))
                : "every process enqueuing for its steps"));
        lines.add("bucket: grain " + ViewCommands.text(s, "grain") + ", zone " + ViewCommands.text(s, "zone")
                + ", coalesce " + (s.path("coalesce").isBoolean() ? s.path("coalesce").asBoolean() : "-"));
        return lines;
    }

    static String runsTable(JsonNode runs) {
        List<Object[]> rows = new ArrayList<>();
        runs.forEach(r -> rows.add(new Object[] {ViewCommands.text(r, "id"), ViewCommands.text(r, "bucket"),
                ViewCommands.text(r, "state"), ViewCommands.text(r, "reason"), batches(r.path("batches")),
                missing(r.path("missing")), r.path("late").asInt(0), ViewCommands.text(r, "createdAt"),
                ViewCommands.text(r, "startedAt"), ViewCommands.text(r, "instanceExecId")}));
        return Table.of("TRIGGER_RUN", "BUCKET", "STATE", "REASON", "BATCHES", "MISSING", "LATE", "CREATED",
                "STARTED", "RUN").rows(rows).render();
    }

    static List<String> resumeLines(JsonNode a, boolean preview) {
        List<String> lines = new ArrayList<>();
        String mode = ViewCommands.text(a, "mode");
        lines.add((preview ? "resuming process " + ViewCommands.text(a, "processId") + " (" + mode + ") would start "
                : "resumed process " + ViewCommands.text(a, "processId") + " (" + mode + "): started ")
                + a.path("start").size() + ", skip" + (preview ? " " : "ped ") + a.path("skip").size());
        if (a.path("start").size() > 0) {
            lines.add(preview ? "would start:" : "started:");
            lines.add(runsTable(a.path("start")));
        }
        if (a.path("skip").size() > 0) {
            lines.add(preview ? "would skip (their batches stay queued):" : "skipped (their batches stay queued):");
            lines.add(runsTable(a.path("skip")));
        }
        return lines;
    }

    /** /why's buckets being waited for, oldest first; empty when none (or an answer from before triggers). */
    static List<String> waitingLines(JsonNode why) {
        JsonNode waiting = why.path("waiting");
        if (!waiting.isArray() || waiting.isEmpty()) {
            return List.of();
        }
        List<Object[]> rows = new ArrayList<>();
        waiting.forEach(w -> rows.add(new Object[] {ViewCommands.text(w, "bucket"), ViewCommands.text(w, "policy"),
                ViewCommands.text(w, "arrived") + "/" + ViewCommands.text(w, "expected"), missing(w.path("missing")),
                ViewCommands.text(w, "timeoutAt")}));
        return List.of("waiting for:", Table.of("BUCKET", "POLICY", "ARRIVED", "MISSING", "TIMEOUT_AT").rows(rows)
                .render());
    }

    /** A run's batches by the process that sent them: {@code 12: 101, 102; 13: 7}. */
    static String batches(JsonNode batches) {
        Map<String, List<String>> bySource = new TreeMap<>();
        batches.forEach(b -> bySource.computeIfAbsent(ViewCommands.text(b, "sourceProcessId"), k -> new ArrayList<>())
                .add(ViewCommands.text(b, "sourceBatchId")));
        return bySource.isEmpty() ? "-" : grouped(bySource);
    }

    /** What a bucket still lacks, by input process: {@code 12: 2026032902, 2026032903}. */
    static String missing(JsonNode missing) {
        Map<String, List<String>> byProcess = new TreeMap<>();
        missing.forEach(m -> {
            List<String> buckets = byProcess.computeIfAbsent(ViewCommands.text(m, "processId"), k -> new ArrayList<>());
            m.path("buckets").forEach(b -> buckets.add(b.asText()));
        });
        return byProcess.isEmpty() ? "-" : grouped(byProcess);
    }

    private static String grouped(Map<String, List<String>> groups) {
        List<String> parts = new ArrayList<>();
        groups.forEach((k, v) -> parts.add(v.isEmpty() ? k : k + ": " + String.join(", ", v)));
        return String.join("; ", parts);
    }

    private static String join(JsonNode values) {
        List<String> parts = new ArrayList<>();
        values.forEach(v -> parts.add(v.asText()));
        return String.join(", ", parts);
    }

    private static String path(long processId, String rest) {
        return "/processes/" + processId + "/trigger" + rest;
    }

    private static JsonNode ask(BatchyardClient client, String method, String path, Object body) {
        return client.call(client.settings().execution(), method, path, body).orElseThrow(() ->
                new ProblemException(0, null, null, "empty answer to " + method + " " + path));
    }
}
