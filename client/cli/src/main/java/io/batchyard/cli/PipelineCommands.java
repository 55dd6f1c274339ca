package io.batchyard.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.cli.pipeline.LiveRegistry;
import io.batchyard.cli.pipeline.Pipeline;
import io.batchyard.cli.pipeline.PipelineFiles;
import io.batchyard.cli.pipeline.Plan;
import io.batchyard.client.BatchyardClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Pipelines as code: an application's definitions as a YAML file kept in git ({@code export}), the difference between
 * such files and the live registry ({@code plan}), and making the registry match them ({@code apply}), one
 * transaction per application.
 */
final class PipelineCommands {

    /** {@code plan --detect-drift}: the live registry differs from the files. */
    static final int DRIFT = 6;

    private PipelineCommands() {
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = {"Write applications' current definitions as pipeline files: DIR/<application>.yaml with the",
                "application, its processes and steps (by name), their properties (a secret as a reference, never",
                "its value) and, for the owner or an administrator, its permissions. Two exports of one state are",
                "the same bytes."})
    static final class Export extends Call {
        @Option(names = "--application", required = true, paramLabel = "NAME",
                description = "the application to export (repeatable)")
        List<String> applications = new ArrayList<>();

        @Option(names = {"-o", "--output-dir"}, required = true, paramLabel = "DIR", description = "where to write")
        Path directory;

        @Override
        int run(BatchyardClient client, Output out) {
            LiveRegistry live = new LiveRegistry(client.settings());
            List<String> written = new ArrayList<>();
            for (String name : applications) {
                Plan.Live state = live.read(name);
                if (state.pipeline() == null) {
                    spec.commandLine().getErr().println("export: no application named '" + name + "' (or not "
                            + "readable with this token)");
                    spec.commandLine().getErr().flush();
                    return ExitCodes.NOT_FOUND;
                }
                Path file = PipelineFiles.write(directory, state.pipeline());
                written.add(file.toString());
                out.line("wrote " + file);
            }
            out.json(Map.of("files", written));
            return ExitCodes.OK;
        }
    }

    /** Where the desired state comes from: pipeline files, or (apply only) a plan saved by {@code plan --out}. */
    static final class Source {
        @Option(names = {"-f", "--file"}, paramLabel = "PATH", description = "a pipeline file, or a directory of them "
                + "(every .yaml/.yml file)")
        Path files;

        @Option(names = "--plan", paramLabel = "FILE", description = "apply the plan saved by plan --out, as it "
                + "was computed (refused if the registry changed since)")
        Path savedPlan;
    }

    @Command(name = "plan", mixinStandardHelpOptions = true,
            description = {"Show what apply would do: per object (application, process, property) create, change or",
                "delete, field by field (old -> new). Files are checked first; a broken rule is named by file and",
                "path. With --detect-drift the exit status is " + DRIFT + " when the registry differs from the files."})
    static final class PlanCommand extends Call {
        @Option(names = {"-f", "--file"}, required = true, paramLabel = "PATH", description = "a pipeline file, or a "
                + "directory of them (every .yaml/.yml file)")
        Path files;

        @Option(names = "--detect-drift", description = "exit " + DRIFT + " when there is any difference")
        boolean detectDrift;

        @Option(names = "--out", paramLabel = "FILE", description = "save the plan (with the versions it saw) for "
                + "apply --plan")
        Path out;

        @Override
        int run(BatchyardClient client, Output output) {
            List<Plan> plans = plans(PipelineFiles.read(files), new LiveRegistry(client.settings()));
            print(plans, output);
            if (out != null) {
                save(plans, out);
                output.line("plan saved to " + out);
            }
            return detectDrift && plans.stream().anyMatch(p -> !p.isEmpty()) ? DRIFT : ExitCodes.OK;
        }
    }

    @Command(name = "apply", mixinStandardHelpOptions = true,
            description = {"Make the registry match pipeline files (-f) or a saved plan (--plan): each application",
                "in one transaction, all of it or nothing; refused (exit 1, the changed object named) when the",
                "registry changed since the plan. A second apply changes nothing. Secrets are left untouched.",
                "Trigger policies (execution-service) and data deadlines are set second, after that transaction."})
    static final class Apply extends Call {
        @ArgGroup(exclusive = true, multiplicity = "1")
        Source source;

        @Override
        int run(BatchyardClient client, Output output) {
            LiveRegistry live = new LiveRegistry(client.settings());
            List<Saved> todo;
            if (source.savedPlan != null) {
                todo = load(source.savedPlan);
                todo.forEach(s -> s.lines().forEach(output::line));
            } else {
                List<Plan> plans = plans(PipelineFiles.read(source.files), live);
                print(plans, output);
                todo = plans.stream().map(Saved::of).toList();
            }
            List<Object> results = new ArrayList<>();
            for (Saved plan : todo) {
                // idempotent: with nothing to change, nothing is sent
                if (!plan.registryEmpty()) {
                    JsonNode applied = live.apply(plan.request());
                    results.add(applied);
                    output.line("applied application '" + plan.application() + "' (id "
                            + applied.path("applicationId").asLong() + "): " + applied.path("changes").asInt()
                            + " change(s) in one transaction");
                }
                // second, once the registry committed: the trigger policies are execution-service's
                live.setTriggers(plan.application(), plan.triggers());
                plan.triggers().forEach((parent, trigger) -> output.line("set the trigger of '" + parent
                        + "' to " + trigger));
                live.setDeadlines(plan.application(), plan.deadlines());
                plan.deadlines().forEach((parent, d) -> output.line((d == null ? "removed the deadlines of '"
                        : "set the deadlines of '") + parent + "'"));
            }
            output.json(Map.of("applied", results));
            return ExitCodes.OK;
        }
    }

    private static List<Plan> plans(List<PipelineFiles.Loaded> files, LiveRegistry live) {
        List<Plan> plans = new ArrayList<>();
        for (PipelineFiles.Loaded f : files) {
            Pipeline desired = f.pipeline();
            plans.add(Plan.between(live.read(desired.application().name()), desired));
        }
        return plans;
    }

    private static void print(List<Plan> plans, Call.Output out) {
        plans.forEach(p -> p.lines().forEach(out::line));
        out.json(plans.stream().map(p -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("application", p.application());
            json.put("changes", p.changes().stream().map(c -> Map.of("action", c.action().word(), "object",
                    c.object(), "fields", c.fields())).toList());
            json.put("notes", p.notes());
            return json;
        }).toList());
    }

    /** A plan as saved by {@code plan --out}: what it shows and the request that applies it. */
    record Saved(String application, boolean registryEmpty, List<String> lines, Map<String, Object> request,
                 Map<String, Pipeline.Trigger> triggers, Map<String, Pipeline.Deadlines> deadlines) {
        Saved {
            // a plan saved before deadlines were part of a file has none to set
            deadlines = deadlines == null ? Map.of() : deadlines;
        }

        static Saved of(Plan p) {
            return new Saved(p.application(), p.registryEmpty(), p.lines(), p.request(), p.triggers(),
                    p.deadlines());
        }
    }

    private static void save(List<Plan> plans, Path file) {
        try {
            Files.writeString(file, Call.JSON.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(plans.stream().map(Saved::of).toList()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Saved> load(Path file) {
        try {
            return Call.JSON.readValue(file.toFile(), new TypeReference<List<Saved>>() { });
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the saved plan " + file + ": " + e.getMessage());
        }
    }
}
