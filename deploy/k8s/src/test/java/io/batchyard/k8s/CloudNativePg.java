package io.batchyard.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Strict validation of CloudNativePG's resources (group {@code postgresql.cnpg.io}) by the Node project in
 * src/test/node: its script {@code validate.js} validates each resource with its model class from the npm package
 * {@code @kubernetes-models/cloudnative-pg} (pinned, with every dependency, in src/test/node/package-lock.json) and
 * refuses unknown fields; the script says how. The first call installs the package ({@code npm ci}); each call runs
 * node once for all the resources it is given.
 *
 * <p>Where node or npm is not on the PATH, this check alone is skipped: {@link #problems} finds nothing and says so
 * once on standard output.
 */
final class CloudNativePg {

    static final String GROUP = "postgresql.cnpg.io";
    private static final Path PROJECT = Path.of("src", "test", "node").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static boolean installed;
    private static boolean skipReported;

    private CloudNativePg() {
    }

    static boolean handles(JsonNode resource) {
        return resource.path("apiVersion").asText().startsWith(GROUP + "/");
    }

    /** Why this check cannot run on this machine, or null when it can. */
    static String unavailable() {
        if (!ExternalCommands.runs("node") || !ExternalCommands.runs("npm")) {
            return "node and npm are not both on the PATH: " + GROUP + " resources are not validated here";
        }
        return null;
    }

    /** Each resource's problems, in the order given; an empty list for a valid resource. */
    static synchronized List<List<String>> problems(List<? extends JsonNode> resources) {
        List<List<String>> problems = new ArrayList<>();
        resources.forEach(r -> problems.add(List.of()));
        if (resources.isEmpty()) {
            return problems;
        }
        String unavailable = unavailable();
        if (unavailable != null) {
            if (!skipReported) {
                System.out.println("[skip] " + unavailable);
                skipReported = true;
            }
            return problems;
        }
        Path input = null;
        try {
            if (!installed) {
                ExternalCommands.runOk(PROJECT, List.of("npm", "ci", "--no-audit", "--no-fund"), Duration.ofMinutes(5));
                installed = true;
            }
            input = Files.createTempFile("cnpg-resources", ".json");
            JSON.writeValue(input.toFile(), resources);
            ExternalCommands.Result result = ExternalCommands.run(PROJECT,
                    List.of("node", "validate.js", input.toString()), Duration.ofSeconds(60));
            System.out.print("node validate.js\n" + result.out() + result.err());
            List<String> lines = result.out().lines().toList();
            if ((result.exit() != 0 && result.exit() != 1) || lines.size() != resources.size()) {
                throw new AssertionError("node validate.js failed (exit " + result.exit() + ", " + lines.size()
                        + " lines for " + resources.size() + " resources):\n" + result.out() + result.err());
            }
            boolean failed = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("FAIL ")) {
                    // FAIL <apiVersion> <kind> <name>: <path>: <problem>; <path>: <problem>…
                    problems.set(i, Arrays.asList(line.substring(line.indexOf(": ") + 2).split("; ")));
                    failed = true;
                } else if (!line.startsWith("ok ")) {
                    throw new AssertionError("node validate.js printed an unexpected line: " + line);
                }
            }
            if (failed != (result.exit() == 1)) {
                throw new AssertionError("node validate.js exited " + result.exit() + " after:\n" + result.out()
                        + result.err());
            }
            return problems;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (input != null) {
                try {
                    Files.deleteIfExists(input);
                } catch (IOException ignored) {
                    // a temporary file
                }
            }
        }
    }
}
