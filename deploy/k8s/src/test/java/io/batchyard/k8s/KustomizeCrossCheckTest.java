package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The in-test renderer gives exactly what the real Kustomize gives, wherever {@code kubectl} (Kustomize is built
 * into it) is installed; elsewhere this test is skipped and says why. Resources are compared as trees, whatever the
 * order of the output.
 */
class KustomizeCrossCheckTest {

    static java.util.stream.Stream<String> trees() {
        return Manifests.trees();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void rendersLikeKubectlKustomize(String tree) throws Exception {
        String kubectl = onPath("kubectl");
        assumeTrue(kubectl != null, "kubectl is not installed: the renderer is not compared with Kustomize here");
        Path out = Files.createTempFile("kustomize-" + tree, ".yaml");
        Process p = new ProcessBuilder(kubectl, "kustomize", Manifests.TREES.get(tree).toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kubectl kustomize finished").isTrue();
        assertThat(p.exitValue()).as(Files.readString(out)).isZero();
        Map<String, JsonNode> expected = byId(Kustomize.readAll(out).stream().map(n -> (ObjectNode) n).toList());
        Map<String, JsonNode> actual = byId(Manifests.of(tree).resources);
        Files.delete(out);
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        for (String id : expected.keySet()) {
            assertThat(actual.get(id)).as(id).isEqualTo(expected.get(id));
        }
    }

    private static Map<String, JsonNode> byId(java.util.List<ObjectNode> resources) {
        Map<String, JsonNode> m = new TreeMap<>();
        resources.forEach(r -> m.put(Manifests.id(r), r));
        return m;
    }

    private static String onPath(String binary) throws IOException {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, binary);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
