package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The base and both overlays render, and the renderer does what the overlays rely on. */
class RenderTest {

    static java.util.stream.Stream<String> trees() {
        return Manifests.trees();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyResourceIsUniqueAndInItsNamespace(String tree) {
        List<ObjectNode> resources = Manifests.of(tree).resources;
        Set<String> ids = new HashSet<>();
        List<String> duplicates = new ArrayList<>();
        List<String> namespaces = new ArrayList<>();
        for (ObjectNode r : resources) {
            String id = Manifests.id(r);
            if (!ids.add(id)) {
                duplicates.add(id);
            }
            String kind = r.path("kind").asText();
            if (kind.equals("Namespace")) {
                namespaces.add(Manifests.name(r));
            } else if (Manifests.namespace(r).equals(Manifests.JOBS_NAMESPACE)) {
                // The jobs' namespace holds what runs jobs safely, and no workload of Batchyard's own.
                assertThat(kind).as(id).isIn("ServiceAccount", "Role", "RoleBinding", "NetworkPolicy");
            } else {
                assertThat(Manifests.namespace(r)).as(id).isEqualTo(Manifests.NAMESPACE);
            }
            assertThat(r.at("/metadata/labels/app.kubernetes.io~1part-of").asText()).as(id).isEqualTo("batchyard");
        }
        assertThat(duplicates).isEmpty();
        assertThat(resources).hasSizeGreaterThan(80);
        // The base is never applied alone; what is applied (an overlay) brings the jobs' namespace with it.
        assertThat(namespaces).isEqualTo(tree.equals("base") ? List.of(Manifests.NAMESPACE)
                : List.of(Manifests.NAMESPACE, Manifests.JOBS_NAMESPACE));
    }

    @Test
    void overlaysSetTheImagesOfTheFiveDeployables() {
        for (String app : SourceFacts.DEPLOYABLES) {
            assertThat(Manifests.container(Manifests.of("base").get("Deployment", app)).path("image").asText())
                    .isEqualTo("ghcr.io/batchyard/" + app + ":0.1.0");
            assertThat(Manifests.container(Manifests.of("production").get("Deployment", app)).path("image").asText())
                    .isEqualTo("ghcr.io/batchyard/" + app + ":0.1.0");
            assertThat(Manifests.container(Manifests.of("local").get("Deployment", app)).path("image").asText())
                    .isEqualTo("ghcr.io/batchyard/" + app + ":dev");
        }
    }

    @Test
    void aStrategicPatchMergesContainersAndEnvByNameAndKeepsTheRest() {
        JsonNode base = Manifests.container(Manifests.of("base").get("Deployment", "queue-service"));
        JsonNode local = Manifests.container(Manifests.of("local").get("Deployment", "queue-service"));
        assertThat(Manifests.env(local, "JAVA_OPTS_APPEND").path("value").asText()).contains("-XX:MaxRAMPercentage=60");
        assertThat(local.path("env")).hasSameSizeAs(base.path("env"));
        assertThat(Manifests.env(local, "BATCHYARD_COMPACTION_STORE_ROOT"))
                .isEqualTo(Manifests.env(base, "BATCHYARD_COMPACTION_STORE_ROOT"));
        assertThat(local.path("readinessProbe")).isEqualTo(base.path("readinessProbe"));
        assertThat(local.at("/resources/limits/memory").asText()).isEqualTo("768Mi");
    }

    @Test
    void aTargetedPatchReachesEveryKafkaTopicAndMergesTheirConfig() {
        Manifests prod = Manifests.of("production");
        assertThat(prod.kind("KafkaTopic")).isNotEmpty().allSatisfy(t -> {
            assertThat(t.at("/spec/replicas").asInt()).isEqualTo(3);
            assertThat(t.at("/spec/config/min.insync.replicas").asInt()).isEqualTo(2);
            assertThat(t.at("/spec/config/retention.ms").isNumber()).isTrue();
            assertThat(Manifests.name(t)).startsWith("batchyard.");
        });
    }

    @Test
    void aNullInAPatchRemovesTheField() {
        assertThat(Manifests.of("base").get("Ingress", "batchyard").at("/spec/tls").isArray()).isTrue();
        assertThat(Manifests.of("local").get("Ingress", "batchyard").at("/spec/tls").isMissingNode()).isTrue();
    }

    @Test
    void theRendererRefusesWhatItDoesNotImplement(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
        Files.writeString(dir.resolve("kustomization.yaml"), "resources: [cm.yaml]\nnamePrefix: dev-\n");
        assertThatThrownBy(() -> Kustomize.render(dir)).hasMessageContaining("namePrefix");
        Files.writeString(dir.resolve("kustomization.yaml"), "resources: [cm.yaml]\npatches: [{path: p.yaml}]\n");
        Files.writeString(dir.resolve("p.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\ndata: {a: b}\n");
        assertThatThrownBy(() -> Kustomize.render(dir)).hasMessageContaining("matches no resource");
    }
}
