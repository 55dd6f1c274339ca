package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where execution-service's kubernetes launcher runs step commands (../jobs): a namespace of their own under the
 * restricted Pod Security Standard, a ServiceAccount without rights or token for the jobs' pods, and for
 * execution-service exactly the API rights the launcher uses, in that namespace only. The settings the Deployment
 * hands the launcher name those objects. The jobs' NetworkPolicies are evaluated with the others in
 * NetworkPolicyTest.
 */
class JobsOnTheClusterTest {

    private static final String JOBS = Manifests.JOBS_NAMESPACE;
    private static final String RBAC = "rbac.authorization.k8s.io";

    static Stream<String> overlays() {
        return Manifests.overlays();
    }

    static Stream<String> trees() {
        return Manifests.trees();
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theJobsNamespaceEnforcesWarnsAndAuditsRestrictedPodSecurity(String tree) {
        JsonNode labels = Manifests.of(tree).get("Namespace", JOBS).at("/metadata/labels");
        for (String mode : List.of("enforce", "warn", "audit")) {
            assertThat(labels.path("pod-security.kubernetes.io/" + mode).asText()).as(mode).isEqualTo("restricted");
        }
        // Not a Kafka client's namespace: a job reaches Batchyard through its HTTP API only.
        assertThat(labels.has("batchyard.io/kafka-clients")).isFalse();
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theJobsServiceAccountHasNoTokenAndNoBinding(String tree) {
        Manifests m = Manifests.of(tree);
        String account = setting(m, "BATCHYARD_RUNNER_KUBERNETES_SERVICE_ACCOUNT");
        JsonNode sa = m.get(JOBS, "ServiceAccount", account);
        assertThat(sa.path("automountServiceAccountToken").isBoolean()).as("automountServiceAccountToken set")
                .isTrue();
        assertThat(sa.path("automountServiceAccountToken").asBoolean()).isFalse();
        // A pull Secret (imagePullSecrets) is the kubelet's; a mountable one (secrets) would be the pod's.
        assertThat(sa.has("secrets")).as("no mountable Secret").isFalse();
        Stream.concat(m.kind("RoleBinding"), m.kind("ClusterRoleBinding")).forEach(binding -> {
            for (JsonNode subject : binding.path("subjects")) {
                assertThat(subject.path("name").asText() + "@" + subject.path("namespace").asText())
                        .as(Manifests.id(binding)).isNotEqualTo(account + "@" + JOBS);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("trees")
    void nothingIsGrantedClusterWide(String tree) {
        assertThat(Stream.concat(Manifests.of(tree).kind("ClusterRole"), Manifests.of(tree).kind("ClusterRoleBinding"))
                .map(Manifests::id)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void executionServiceMayManageJobsAndReadTheirPodsAndLogsInTheJobsNamespaceOnly(String tree) {
        Manifests m = Manifests.of(tree);
        List<ObjectNode> bindings = m.kind("RoleBinding").toList();
        assertThat(bindings).as("the one RoleBinding of the tree").hasSize(1);
        ObjectNode binding = bindings.get(0);
        assertThat(Manifests.namespace(binding)).isEqualTo(JOBS);
        assertThat(setting(m, "BATCHYARD_RUNNER_KUBERNETES_NAMESPACE")).isEqualTo(JOBS);
        assertThat(binding.at("/roleRef/apiGroup").asText()).isEqualTo(RBAC);
        assertThat(binding.at("/roleRef/kind").asText()).isEqualTo("Role");
        assertThat(binding.path("subjects")).hasSize(1);
        JsonNode subject = binding.path("subjects").get(0);
        assertThat(subject.path("kind").asText()).isEqualTo("ServiceAccount");
        assertThat(subject.path("name").asText()).isEqualTo("execution-service");
        assertThat(subject.path("namespace").asText()).isEqualTo(Manifests.NAMESPACE);

        List<ObjectNode> roles = m.kind("Role").toList();
        assertThat(roles).as("the one Role of the tree").hasSize(1);
        ObjectNode role = m.get(JOBS, "Role", binding.at("/roleRef/name").asText());
        Set<String> grants = new TreeSet<>();
        for (JsonNode rule : role.path("rules")) {
            // A grant is exactly group, resource and verb: no names to narrow it, no URLs, no wildcards.
            assertThat(rule.has("resourceNames") || rule.has("nonResourceURLs")).as(rule.toString()).isFalse();
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    for (JsonNode verb : rule.path("verbs")) {
                        grants.add(group.asText() + "/" + resource.asText() + ":" + verb.asText());
                    }
                }
            }
        }
        assertThat(grants).isEqualTo(new TreeSet<>(Set.of(
                "batch/jobs:create", "batch/jobs:get", "batch/jobs:list", "batch/jobs:watch", "batch/jobs:delete",
                "/pods:get", "/pods:list", "/pods:watch",
                "/pods/log:get")));
    }

    @ParameterizedTest
    @MethodSource("trees")
    void executionServiceRunsStepsAsJobsWithItsOwnTokenAndNoOtherDeployableHasOne(String tree) {
        Manifests m = Manifests.of(tree);
        assertThat(setting(m, "BATCHYARD_RUNNER_LAUNCHER")).isEqualTo("kubernetes");
        assertThat(setting(m, "BATCHYARD_RUNNER_KUBERNETES_NAMESPACE")).isEqualTo(JOBS);
        assertThat(setting(m, "BATCHYARD_RUNNER_KUBERNETES_SERVICE_ACCOUNT")).isEqualTo("batchyard-job");
        String image = setting(m, "BATCHYARD_RUNNER_KUBERNETES_DEFAULT_IMAGE");
        assertThat(image).as("a tagged image")
                .matches("[a-z0-9./-]+/[a-z0-9._-]+(:[A-Za-z0-9._-]+|@sha256:[0-9a-f]{64})");
        assertThat(image).as("the jobs run the steps' scripts, not the service's image")
                .doesNotStartWith("ghcr.io/batchyard/execution-service");

        JsonNode pod = m.get("Deployment", "execution-service").at("/spec/template/spec");
        assertThat(pod.path("serviceAccountName").asText()).isEqualTo("execution-service");
        // The fabric8 client's in-cluster configuration reads the mounted token.
        assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isTrue();
        assertThat(m.get("ServiceAccount", "execution-service").path("automountServiceAccountToken").asBoolean(true))
                .isTrue();
    }

    /**
     * The pair evaluation (NetworkPolicyTest) sees pods only; this also rules out addresses: a job's egress names
     * the services' API port and DNS, each by namespace and pod selector, and no ipBlock or open rule.
     */
    @ParameterizedTest
    @MethodSource("overlays")
    void theJobsPoliciesDenyEverythingButTheApiAndDns(String tree) {
        List<ObjectNode> policies = Manifests.of(tree).kind("NetworkPolicy")
                .filter(np -> Manifests.namespace(np).equals(JOBS)).toList();
        assertThat(policies).as("a default deny of both directions").anySatisfy(np -> {
            assertThat(np.at("/spec/podSelector").isEmpty()).isTrue();
            assertThat(np.at("/spec/policyTypes").toString()).contains("Ingress").contains("Egress");
            assertThat(np.at("/spec/ingress").isMissingNode() && np.at("/spec/egress").isMissingNode()).isTrue();
        });
        Set<String> reached = new TreeSet<>();
        for (ObjectNode np : policies) {
            String who = Manifests.id(np);
            assertThat(np.at("/spec/ingress").isMissingNode()).as(who + " lets nothing in").isTrue();
            for (JsonNode rule : np.at("/spec/egress")) {
                assertThat(rule.path("to").isEmpty()).as(who + " names its peers").isFalse();
                assertThat(rule.path("ports").isEmpty()).as(who + " names its ports").isFalse();
                for (JsonNode peer : rule.path("to")) {
                    assertThat(peer.has("ipBlock")).as(who + " names no addresses").isFalse();
                    assertThat(peer.at("/podSelector").isEmpty()).as(who + " names pods, not a whole namespace")
                            .isFalse();
                    String namespace = peer.at("/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText();
                    for (JsonNode port : rule.path("ports")) {
                        reached.add(namespace + ":" + port.path("port").asInt());
                    }
                }
            }
        }
        assertThat(reached).containsExactly(Manifests.NAMESPACE + ":8080", "kube-system:53");
    }

    /** A literal env value of execution-service's container. */
    private static String setting(Manifests m, String name) {
        JsonNode env = Manifests.env(Manifests.container(m.get("Deployment", "execution-service")), name);
        assertThat(env.path("value").isTextual()).as(m + ": execution-service's " + name).isTrue();
        return env.path("value").asText();
    }
}
