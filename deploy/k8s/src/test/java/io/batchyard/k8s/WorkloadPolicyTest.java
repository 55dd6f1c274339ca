package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a reviewer checks on every workload, on the rendered base and overlays: restricted Pod Security, resources
 * and a JVM heap that fits them, probes, the companions of each deployable (ServiceAccount, PodDisruptionBudget,
 * HorizontalPodAutoscaler, ServiceMonitor), and references that resolve (selectors, volumes, $(VAR), Ingress
 * backends).
 */
class WorkloadPolicyTest {

    private static final BigDecimal MI = BigDecimal.valueOf(1024L * 1024L);
    /** The workloads that call the Kubernetes API, and so mount their ServiceAccount's token. */
    private static final Set<String> API_CLIENTS = Set.of("Deployment execution-service");

    static Stream<String> trees() {
        return Manifests.trees();
    }

    /** Every pod template of the tree: Deployments' and Jobs'. */
    private static List<ObjectNode> podOwners(Manifests m) {
        return Stream.concat(m.kind("Deployment"), m.kind("Job")).toList();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void theNamespaceEnforcesRestrictedPodSecurity(String tree) {
        JsonNode ns = Manifests.of(tree).get("Namespace", "batchyard");
        assertThat(ns.at("/metadata/labels/pod-security.kubernetes.io~1enforce").asText()).isEqualTo("restricted");
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyContainerMeetsTheRestrictedProfileWithAReadOnlyRoot(String tree) {
        for (ObjectNode owner : podOwners(Manifests.of(tree))) {
            JsonNode pod = owner.at("/spec/template/spec");
            String who = owner.path("kind").asText() + " " + Manifests.name(owner);
            // Only execution-service calls the Kubernetes API (its kubernetes launcher; JobsOnTheClusterTest).
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).as(who + " mounts a token")
                    .isEqualTo(API_CLIENTS.contains(who));
            for (JsonNode c : pod.path("containers")) {
                JsonNode sc = c.path("securityContext");
                JsonNode podSc = pod.path("securityContext");
                assertThat(sc.path("runAsNonRoot").asBoolean(podSc.path("runAsNonRoot").asBoolean(false))).as(who).isTrue();
                assertThat(sc.path("allowPrivilegeEscalation").isBoolean() && !sc.path("allowPrivilegeEscalation").asBoolean())
                        .as(who + " allowPrivilegeEscalation: false").isTrue();
                assertThat(sc.path("readOnlyRootFilesystem").asBoolean(false)).as(who + " read-only root").isTrue();
                assertThat(sc.at("/capabilities/drop").toString()).as(who).isEqualTo("[\"ALL\"]");
                assertThat(sc.at("/capabilities/add").isMissingNode()).as(who + " adds no capability").isTrue();
                String seccomp = sc.at("/seccompProfile/type").asText(podSc.at("/seccompProfile/type").asText());
                assertThat(seccomp).as(who).isEqualTo("RuntimeDefault");
                assertThat(sc.path("runAsUser").asLong(podSc.path("runAsUser").asLong(0))).as(who + " uid").isPositive();
                assertThat(sc.path("privileged").asBoolean(false)).isFalse();
                // A read-only root needs somewhere to write: the JVM's and Vert.x's temporary files.
                assertThat(mountedVolume(pod, c, "/tmp")).as(who + " /tmp").isNotNull();
                assertThat(mountedVolume(pod, c, "/tmp").has("emptyDir")).as(who + " /tmp is an emptyDir").isTrue();
            }
            assertThat(pod.path("hostNetwork").asBoolean(false) || pod.path("hostPID").asBoolean(false)).isFalse();
        }
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyContainerHasRequestsAndLimitsWithMemoryGuaranteed(String tree) {
        for (ObjectNode owner : podOwners(Manifests.of(tree))) {
            for (JsonNode c : owner.at("/spec/template/spec/containers")) {
                JsonNode r = c.path("resources");
                String who = Manifests.name(owner) + "/" + c.path("name").asText();
                for (String q : List.of("/requests/cpu", "/requests/memory", "/limits/cpu", "/limits/memory")) {
                    assertThat(r.at(q).isMissingNode()).as(who + q).isFalse();
                }
                assertThat(bytes(r.at("/requests/memory"))).as(who + " memory request = limit")
                        .isEqualByComparingTo(bytes(r.at("/limits/memory")));
                assertThat(bytes(r.at("/requests/cpu"))).as(who + " cpu request <= limit")
                        .isLessThanOrEqualTo(bytes(r.at("/limits/cpu")));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("trees")
    void theHeapOfEveryDeployableFitsItsMemoryLimit(String tree) {
        Pattern ratio = Pattern.compile("-XX:MaxRAMPercentage=(\\d+(?:\\.\\d+)?)");
        for (String app : SourceFacts.DEPLOYABLES) {
            JsonNode c = Manifests.container(Manifests.of(tree).get("Deployment", app));
            Matcher m = ratio.matcher(Manifests.env(c, "JAVA_OPTS_APPEND").path("value").asText());
            assertThat(m.find()).as(app + " sets -XX:MaxRAMPercentage in JAVA_OPTS_APPEND").isTrue();
            assertThat(Manifests.env(c, "JAVA_OPTS_APPEND").path("value").asText()).doesNotContain("-Xmx");
            BigDecimal limit = bytes(c.at("/resources/limits/memory"));
            BigDecimal heap = limit.multiply(new BigDecimal(m.group(1))).divide(BigDecimal.valueOf(100));
            // The local stack runs every service with a 384 MiB heap; what is not heap (metaspace, code cache, threads,
            // Netty's and Kafka's buffers) needs a good 256 MiB.
            assertThat(heap).as(app + " heap").isGreaterThanOrEqualTo(MI.multiply(BigDecimal.valueOf(384)));
            assertThat(limit.subtract(heap)).as(app + " non-heap").isGreaterThanOrEqualTo(MI.multiply(BigDecimal.valueOf(256)));
        }
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyDeployableProbesItsHealthEndpoints(String tree) {
        for (String app : SourceFacts.DEPLOYABLES) {
            JsonNode c = Manifests.container(Manifests.of(tree).get("Deployment", app));
            assertThat(c.at("/startupProbe/httpGet/path").asText()).as(app).isEqualTo("/q/health/started");
            assertThat(c.at("/readinessProbe/httpGet/path").asText()).as(app).isEqualTo("/q/health/ready");
            assertThat(c.at("/livenessProbe/httpGet/path").asText()).as(app).isEqualTo("/q/health/live");
            for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
                assertThat(c.at("/" + probe + "/httpGet/port").asText()).as(app + " " + probe).isEqualTo("management");
            }
            assertThat(containerPort(c, "management")).as(app + " management port")
                    .isEqualTo(managementPort(Manifests.of(tree)));
        }
        JsonNode registry = Manifests.container(Manifests.of(tree).get("Deployment", "schema-registry"));
        assertThat(registry.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/health/ready");
        assertThat(registry.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health/live");
    }

    @ParameterizedTest
    @MethodSource("trees")
    void executionServiceLetsItsRunnerDrainBeforeItStops(String tree) {
        JsonNode d = Manifests.of(tree).get("Deployment", "execution-service");
        int grace = d.at("/spec/template/spec/terminationGracePeriodSeconds").asInt();
        int preStop = Manifests.container(d).at("/lifecycle/preStop/sleep/seconds").asInt();
        String drainGrace = null;
        for (JsonNode env : Manifests.container(d).at("/env")) {
            if (env.path("name").asText().equals("BATCHYARD_RUNNER_DRAIN_GRACE")) {
                drainGrace = env.path("value").asText();
            }
        }
        assertThat(drainGrace).as("execution-service's BATCHYARD_RUNNER_DRAIN_GRACE").isNotNull();
        long drain = java.time.Duration.parse(drainGrace).toSeconds();
        assertThat(grace).isEqualTo(120);
        assertThat(preStop).isPositive();
        // After the sleep the runner drains for up to its grace, then the JVM still needs time to shut down (Kafka
        // consumers leave their groups, pools close).
        assertThat(grace - preStop - drain).isGreaterThanOrEqualTo(20);
        for (String app : SourceFacts.DEPLOYABLES) {
            assertThat(Manifests.of(tree).get("Deployment", app).at("/spec/template/spec/terminationGracePeriodSeconds")
                    .isInt()).as(app).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyDeployableHasItsServiceAccountBudgetAutoscalerAndMonitor(String tree) {
        Manifests m = Manifests.of(tree);
        for (String app : SourceFacts.DEPLOYABLES) {
            JsonNode d = m.get("Deployment", app);
            JsonNode podLabels = d.at("/spec/template/metadata/labels");
            JsonNode sa = m.get("ServiceAccount", app);
            assertThat(sa.path("automountServiceAccountToken").asBoolean(true)).as(app)
                    .isEqualTo(API_CLIENTS.contains("Deployment " + app));
            assertThat(d.at("/spec/template/spec/serviceAccountName").asText()).isEqualTo(app);
            // The autoscaler owns the replica count; a count in the Deployment would reset it on every apply.
            assertThat(d.at("/spec/replicas").isMissingNode()).as(app + " has no spec.replicas").isTrue();

            JsonNode pdb = m.get("PodDisruptionBudget", app);
            assertThat(selects(pdb.at("/spec/selector/matchLabels"), podLabels)).as(app + " PDB").isTrue();
            assertThat(pdb.at("/spec/maxUnavailable").asInt()).isEqualTo(1);

            JsonNode hpa = m.get("HorizontalPodAutoscaler", app);
            assertThat(hpa.path("apiVersion").asText()).isEqualTo("autoscaling/v2");
            assertThat(hpa.at("/spec/scaleTargetRef/kind").asText()).isEqualTo("Deployment");
            assertThat(hpa.at("/spec/scaleTargetRef/name").asText()).isEqualTo(app);
            int min = hpa.at("/spec/minReplicas").asInt();
            assertThat(hpa.at("/spec/maxReplicas").asInt()).isGreaterThanOrEqualTo(min);
            assertThat(min).as(app + " minReplicas").isGreaterThanOrEqualTo(tree.equals("production") ? 2 : 1);
            // CPU utilisation is measured against the request: without one the autoscaler cannot work.
            assertThat(Manifests.container(d).at("/resources/requests/cpu").isMissingNode()).isFalse();

            JsonNode service = m.get("Service", app);
            assertThat(selects(service.at("/spec/selector"), podLabels)).as(app + " Service").isTrue();
            JsonNode monitor = m.get("ServiceMonitor", app);
            assertThat(selects(monitor.at("/spec/selector/matchLabels"), service.at("/metadata/labels"))).isTrue();
            assertThat(monitor.at("/spec/endpoints/0/path").asText()).isEqualTo("/q/metrics");
            assertThat(monitor.at("/spec/endpoints/0/port").asText()).as(app + " scraped").isEqualTo("management");
            assertThat(service.at("/spec/ports/0/name").asText()).isEqualTo("http");
            assertThat(servicePort(service, "management").path("targetPort").asText()).as(app + " Service")
                    .isEqualTo("management");
        }
    }

    @ParameterizedTest
    @MethodSource("trees")
    void selectorsVolumesAndVariablesAllResolve(String tree) {
        Manifests m = Manifests.of(tree);
        for (ObjectNode d : m.kind("Deployment").toList()) {
            String who = Manifests.name(d);
            assertThat(selects(d.at("/spec/selector/matchLabels"), d.at("/spec/template/metadata/labels"))).as(who).isTrue();
            JsonNode pod = d.at("/spec/template/spec");
            Set<String> volumes = new HashSet<>();
            pod.path("volumes").forEach(v -> volumes.add(v.path("name").asText()));
            for (JsonNode c : pod.path("containers")) {
                c.path("volumeMounts").forEach(vm -> assertThat(volumes).as(who).contains(vm.path("name").asText()));
                // Kubernetes expands $(VAR) only from envFrom and earlier env entries; any other stays literal text.
                Set<String> defined = new HashSet<>();
                for (JsonNode from : c.path("envFrom")) {
                    m.get("ConfigMap", from.at("/configMapRef/name").asText()).path("data").fieldNames()
                            .forEachRemaining(defined::add);
                }
                for (JsonNode e : c.path("env")) {
                    Matcher ref = Pattern.compile("\\$\\(([A-Z0-9_]+)\\)").matcher(e.path("value").asText());
                    while (ref.find()) {
                        assertThat(defined).as(who + " " + e.path("name").asText() + " references $(" + ref.group(1) + ")")
                                .contains(ref.group(1));
                    }
                    defined.add(e.path("name").asText());
                }
            }
        }
        for (JsonNode rule : m.get("Ingress", "batchyard").at("/spec/rules")) {
            JsonNode backend = rule.at("/http/paths/0/backend/service");
            JsonNode service = m.get("Service", backend.path("name").asText());
            List<String> ports = service.at("/spec/ports").findValuesAsText("name");
            assertThat(ports).contains(backend.at("/port/name").asText());
        }
    }

    /**
     * Health, metrics and OpenAPI are served on the management port only; the Ingress publishes the API's port and
     * never that one, whichever way a backend names its port.
     */
    @ParameterizedTest
    @MethodSource("trees")
    void theIngressNeverRoutesAManagementPort(String tree) {
        Manifests m = Manifests.of(tree);
        int management = managementPort(m);
        List<String> routed = new java.util.ArrayList<>();
        for (JsonNode rule : m.get("Ingress", "batchyard").at("/spec/rules")) {
            for (JsonNode path : rule.at("/http/paths")) {
                JsonNode backend = path.at("/backend/service");
                String app = backend.path("name").asText();
                routed.add(app);
                JsonNode port = backend.path("port");
                JsonNode servicePort = port.has("name") ? servicePort(m.get("Service", app), port.path("name").asText())
                        : servicePort(m.get("Service", app), port.path("number").asInt());
                assertThat(servicePort.path("name").asText()).as(app + " routed port").isEqualTo("http");
                assertThat(servicePort.path("port").asInt()).as(app + " routed port").isNotEqualTo(management);
                JsonNode c = Manifests.container(m.get("Deployment", app));
                JsonNode target = servicePort.path("targetPort");
                int targetPort = target.isInt() ? target.asInt() : containerPort(c, target.asText());
                assertThat(targetPort).as(app + " routed container port").isNotEqualTo(containerPort(c, "management"))
                        .isEqualTo(containerPort(c, "http"));
            }
        }
        assertThat(routed).as("every API and the dashboard are routed").containsAll(SourceFacts.DEPLOYABLES);
    }

    /** The management interface's port, as the shared ConfigMap sets it for every deployable. */
    private static int managementPort(Manifests m) {
        return Integer.parseInt(m.get("ConfigMap", "batchyard-config").at("/data/QUARKUS_MANAGEMENT_PORT").asText());
    }

    private static int containerPort(JsonNode container, String name) {
        for (JsonNode p : container.path("ports")) {
            if (p.path("name").asText().equals(name)) {
                return p.path("containerPort").asInt();
            }
        }
        throw new AssertionError(container.path("name").asText() + " has no container port " + name);
    }

    private static JsonNode servicePort(JsonNode service, String name) {
        for (JsonNode p : service.at("/spec/ports")) {
            if (p.path("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError(Manifests.name(service) + " has no port " + name);
    }

    private static JsonNode servicePort(JsonNode service, int number) {
        for (JsonNode p : service.at("/spec/ports")) {
            if (p.path("port").asInt() == number) {
                return p;
            }
        }
        throw new AssertionError(Manifests.name(service) + " has no port " + number);
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyServiceGetsTheSettingsItReads(String tree) {
        Manifests m = Manifests.of(tree);
        Map<String, List<String>> required = Map.of(
                "registry-service", List.of("BATCHYARD_SECRETS_KEY"),
                "execution-service", List.of("BATCHYARD_QUEUE_URL", "BATCHYARD_LINEAGE_URL", "BATCHYARD_RUNNER_SCRIPT_DIR",
                        "QUARKUS_OIDC_CLIENT_AUTH_SERVER_URL", "QUARKUS_OIDC_CLIENT_CLIENT_ID",
                        "QUARKUS_OIDC_CLIENT_CREDENTIALS_SECRET"),
                "queue-service", List.of("BATCHYARD_COMPACTION_STORE_ROOT"),
                "lineage-service", List.of(),
                "dashboard", List.of("BATCHYARD_EXECUTION_URL", "BATCHYARD_QUEUE_URL", "BATCHYARD_LINEAGE_URL"));
        for (String app : SourceFacts.DEPLOYABLES) {
            JsonNode c = Manifests.container(m.get("Deployment", app));
            Set<String> names = new HashSet<>();
            c.path("env").forEach(e -> names.add(e.path("name").asText()));
            for (JsonNode from : c.path("envFrom")) {
                m.get("ConfigMap", from.at("/configMapRef/name").asText()).path("data").fieldNames()
                        .forEachRemaining(names::add);
            }
            assertThat(names).as(app).contains("KAFKA_BOOTSTRAP_SERVERS", "KAFKA_SASL_JAAS_CONFIG",
                    "BATCHYARD_SCHEMA_REGISTRY_URL", "QUARKUS_OIDC_AUTH_SERVER_URL", "QUARKUS_OIDC_TOKEN_AUDIENCE",
                    "QUARKUS_HTTP_PORT");
            assertThat(names).as(app).containsAll(required.get(app));
            if (!app.equals("dashboard")) {
                assertThat(names).as(app).contains("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_REACTIVE_URL",
                        "QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD");
            }
            // Secrets only ever from Secrets.
            for (JsonNode e : c.path("env")) {
                String n = e.path("name").asText();
                if (n.contains("PASSWORD") || n.contains("SECRET") || n.contains("JAAS") || n.endsWith("_KEY")) {
                    assertThat(e.at("/valueFrom/secretKeyRef/name").isMissingNode()).as(app + " " + n).isFalse();
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyDeployableRequiresTheAudienceTheServicesAndTheRealmUse(String tree) throws IOException {
        Properties defaults = new Properties();
        try (Reader in = Files.newBufferedReader(SourceFacts.REPO.resolve(
                "platform/http/src/main/resources/META-INF/microprofile-config.properties"))) {
            defaults.load(in);
        }
        String audience = defaults.getProperty("quarkus.oidc.token.audience");
        assertThat(audience).isNotBlank();
        JsonNode config = Manifests.of(tree).get("ConfigMap", "batchyard-config").path("data");
        assertThat(config.path("QUARKUS_OIDC_TOKEN_AUDIENCE").asText()).isEqualTo(audience);
        // The realm the local overlay's Keycloak imports puts that audience into the tokens of every client.
        JsonNode realm = new ObjectMapper().readTree(
                SourceFacts.REPO.resolve("deploy/local/keycloak/batchyard-realm.json").toFile());
        for (JsonNode client : realm.path("clients")) {
            assertThat(client.path("protocolMappers").findValuesAsText("included.custom.audience"))
                    .as(client.path("clientId").asText()).containsExactly(audience);
        }
    }

    private static JsonNode mountedVolume(JsonNode pod, JsonNode container, String path) {
        for (JsonNode vm : container.path("volumeMounts")) {
            if (vm.path("mountPath").asText().equals(path)) {
                for (JsonNode v : pod.path("volumes")) {
                    if (v.path("name").asText().equals(vm.path("name").asText())) {
                        return v;
                    }
                }
            }
        }
        return null;
    }

    /** Whether a label selector (matchLabels form) selects the given labels. */
    static boolean selects(JsonNode matchLabels, JsonNode labels) {
        if (matchLabels.isMissingNode() || matchLabels.isEmpty()) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = matchLabels.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        return true;
    }

    private static BigDecimal bytes(JsonNode quantity) {
        return Quantity.getAmountInBytes(new Quantity(quantity.asText()));
    }
}
