package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Evaluates the rendered NetworkPolicies (as the Kubernetes NetworkPolicy semantics define them: a policy selects pods
 * of its own namespace; a pod selected by no policy of a direction is open in it, one selected by any is open only to
 * what some such policy allows) between every pair of pods the namespace and, where a tree has it, the jobs' namespace
 * run, and compares the result with the calls the architecture has. The brokers' ingress is the policy Strimzi
 * generates from the listener's networkPolicyPeers.
 */
class NetworkPolicyTest {

    /** A pod: where it runs and its labels. Pods outside the namespace stand for their namespace's workloads. */
    record Pod(String name, String namespace, Map<String, String> labels) {
    }

    private static final String NS = Manifests.NAMESPACE;
    private static final String JOBS = Manifests.JOBS_NAMESPACE;
    private static final List<String> SERVICES = List.of("registry-service", "execution-service", "queue-service",
            "lineage-service");

    static Stream<String> trees() {
        return Manifests.trees();
    }

    private static List<Pod> pods(Manifests m) {
        List<Pod> pods = new ArrayList<>();
        Stream.concat(m.kind("Deployment"), m.kind("Job")).forEach(d -> {
            Map<String, String> labels = new LinkedHashMap<>();
            d.at("/spec/template/metadata/labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            pods.add(new Pod(labels.get("app.kubernetes.io/name"), NS, labels));
        });
        // The pods the operators create, with the labels Strimzi and CloudNativePG give them.
        pods.add(new Pod("kafka", NS, Map.of("strimzi.io/cluster", "batchyard", "strimzi.io/kind", "Kafka",
                "strimzi.io/name", "batchyard-kafka", "strimzi.io/broker-role", "true")));
        pods.add(new Pod("entity-operator", NS, Map.of("strimzi.io/cluster", "batchyard", "strimzi.io/kind", "Kafka",
                "strimzi.io/name", "batchyard-entity-operator")));
        pods.add(new Pod("postgres", NS, Map.of("cnpg.io/cluster", "batchyard-pg", "cnpg.io/instanceRole", "primary")));
        pods.add(new Pod("ingress-controller", "ingress-nginx", Map.of("app.kubernetes.io/name", "ingress-nginx")));
        pods.add(new Pod("prometheus", "monitoring", Map.of("app.kubernetes.io/name", "prometheus")));
        pods.add(new Pod("otel-collector", "opentelemetry",
                Map.of("app.kubernetes.io/name", "opentelemetry-collector")));
        pods.add(new Pod("dns", "kube-system", Map.of("k8s-app", "kube-dns")));
        pods.add(new Pod("keycloak", "keycloak", Map.of("app", "keycloak")));
        pods.add(new Pod("cnpg-operator", "cnpg-system", Map.of("app.kubernetes.io/name", "cloudnative-pg")));
        pods.add(new Pod("job", "etl-jobs", Map.of("app", "spark")));
        if (m.find("Namespace", JOBS).isPresent()) {
            // A step's Job, as execution-service's kubernetes launcher creates it (the Job controller's label).
            pods.add(new Pod("step-job", JOBS, Map.of("batch.kubernetes.io/job-name", "step")));
        }
        // Any other workload of the cluster: reaches nothing here.
        pods.add(new Pod("elsewhere", "other", Map.of("app", "other")));
        return pods;
    }

    @ParameterizedTest
    @MethodSource("trees")
    void onlyTheArchitecturesCallsAreAllowed(String tree) {
        Manifests m = Manifests.of(tree);
        List<Pod> pods = pods(m);
        Map<String, List<Integer>> listens = new LinkedHashMap<>();
        for (String app : SourceFacts.DEPLOYABLES) {
            // The API, and the management interface (health, metrics, OpenAPI).
            listens.put(app, List.of(8080, 9000));
        }
        listens.put("schema-registry", List.of(8080, 9000));
        listens.put("kafka", List.of(9090, 9091, 9093));
        listens.put("postgres", List.of(5432, 8000, 9187));
        listens.put("dns", List.of(53));
        listens.put("keycloak", List.of(8080));
        // OTLP over gRPC and over HTTP.
        listens.put("otel-collector", List.of(4317, 4318));
        // A step's command may open a port; nothing may reach it.
        listens.put("step-job", List.of(8080));

        TreeSet<String> allowed = new TreeSet<>();
        for (Pod from : pods) {
            for (Pod to : pods) {
                for (int port : listens.getOrDefault(to.name(), List.of())) {
                    boolean ours = governed(m, from.namespace()) || governed(m, to.namespace());
                    if (from != to && ours && allows(m, from, to, port)) {
                        allowed.add(from.name() + " -> " + to.name() + ":" + port);
                    }
                }
            }
        }

        TreeSet<String> expected = new TreeSet<>();
        for (String app : SourceFacts.DEPLOYABLES) {
            expected.add("ingress-controller -> " + app + ":8080");
            // Prometheus scrapes the management port, and reaches nothing else of a deployable.
            expected.add("prometheus -> " + app + ":9000");
            expected.add(app + " -> kafka:9093");
            expected.add(app + " -> schema-registry:8080");
            expected.add(app + " -> keycloak:8080");
            expected.add(app + " -> dns:53");
            if (tree.equals("production")) {
                // Production exports spans to the collector it names (overlays/production/observability.yaml).
                expected.add(app + " -> otel-collector:4317");
            }
        }
        for (String service : SERVICES) {
            expected.add(service + " -> postgres:5432");
        }
        expected.add("execution-service -> queue-service:8080");
        expected.add("execution-service -> lineage-service:8080");
        for (String panel : List.of("execution-service", "queue-service", "lineage-service")) {
            expected.add("dashboard -> " + panel + ":8080");
        }
        expected.addAll(List.of("schema-registry -> postgres:5432", "schema-registry -> dns:53",
                "prometheus -> schema-registry:9000", "schema-compatibility -> schema-registry:8080",
                "schema-compatibility -> dns:53", "entity-operator -> kafka:9091", "entity-operator -> dns:53",
                "kafka -> dns:53", "postgres -> dns:53", "cnpg-operator -> postgres:5432",
                "cnpg-operator -> postgres:8000", "prometheus -> postgres:9187", "job -> kafka:9093"));
        if (m.find("Namespace", JOBS).isPresent()) {
            // A step's Job reaches Batchyard's API (never a management port) and DNS, nothing else.
            for (String service : SERVICES) {
                expected.add("step-job -> " + service + ":8080");
            }
            expected.add("step-job -> dns:53");
        }
        assertThat(allowed).isEqualTo(expected);
    }

    /** Whether the tree has policies for the namespace (else its pods are open both ways). */
    private static boolean governed(Manifests m, String namespace) {
        return m.kind("NetworkPolicy").anyMatch(np -> Manifests.namespace(np).equals(namespace));
    }

    /** Whether {@code from} may open a connection to {@code to} on {@code port}. */
    private static boolean allows(Manifests m, Pod from, Pod to, int port) {
        boolean egress = !governed(m, from.namespace()) || direction(m, from, to, port, "Egress");
        boolean ingress;
        if (to.name().equals("kafka") && port == 9093) {
            ingress = peers(m, m.get("Kafka", "batchyard").at("/spec/kafka/listeners/0/networkPolicyPeers"), NS, from);
        } else if (to.name().equals("kafka")) {
            // Strimzi's own policy: its internal ports are for the Kafka pods and the operators only.
            ingress = from.labels().containsKey("strimzi.io/cluster");
        } else {
            ingress = !governed(m, to.namespace()) || direction(m, to, from, port, "Ingress");
        }
        return egress && ingress;
    }

    /** Whether the policies selecting {@code self} let it talk to (Egress) or hear from (Ingress) {@code peer}. */
    private static boolean direction(Manifests m, Pod self, Pod peer, int port, String type) {
        boolean selected = false;
        for (ObjectNode np : m.kind("NetworkPolicy").toList()) {
            JsonNode spec = np.path("spec");
            if (!Manifests.namespace(np).equals(self.namespace()) || !matches(spec.path("podSelector"), self.labels())
                    || !spec.path("policyTypes").toString().contains(type)) {
                continue;
            }
            selected = true;
            for (JsonNode rule : spec.path(type.equals("Egress") ? "egress" : "ingress")) {
                JsonNode peers = rule.path(type.equals("Egress") ? "to" : "from");
                boolean peerOk = peers.isMissingNode() || peers.isEmpty() || peers(m, peers, self.namespace(), peer);
                boolean portOk = rule.path("ports").isMissingNode() || rule.path("ports").isEmpty();
                for (JsonNode p : rule.path("ports")) {
                    portOk |= p.path("port").asInt() == port;
                }
                if (peerOk && portOk) {
                    return true;
                }
            }
        }
        return !selected;
    }

    /** Whether a policy of namespace {@code policyNamespace} names {@code peer} among {@code peers}. */
    private static boolean peers(Manifests m, JsonNode peers, String policyNamespace, Pod peer) {
        for (JsonNode p : peers) {
            if (p.has("ipBlock")) {
                // An ipBlock names addresses outside the cluster (the provider on 443); no pod here is one.
                continue;
            }
            boolean nsOk = p.has("namespaceSelector")
                    ? matches(p.path("namespaceSelector"), namespaceLabels(m, peer.namespace()))
                    : peer.namespace().equals(policyNamespace);
            boolean podOk = !p.has("podSelector") || matches(p.path("podSelector"), peer.labels());
            if (nsOk && podOk) {
                return true;
            }
        }
        return false;
    }

    /** A LabelSelector (matchLabels and matchExpressions In/NotIn/Exists/DoesNotExist) against labels. */
    static boolean matches(JsonNode selector, Map<String, String> labels) {
        for (var it = selector.path("matchLabels").fields(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (JsonNode expr : selector.path("matchExpressions")) {
            String value = labels.get(expr.path("key").asText());
            List<String> values = new ArrayList<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            boolean ok = switch (expr.path("operator").asText()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new IllegalArgumentException("operator " + expr.path("operator").asText());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every namespace carries its name as a label, and a namespace the tree renders the labels it gives it; the
     * outside jobs' namespace is marked as a Kafka client's.
     */
    private static Map<String, String> namespaceLabels(Manifests m, String namespace) {
        Map<String, String> labels = new LinkedHashMap<>();
        m.find("Namespace", namespace).ifPresent(ns -> ns.at("/metadata/labels").fields()
                .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText())));
        if (namespace.equals("etl-jobs")) {
            labels.put("batchyard.io/kafka-clients", "true");
        }
        labels.put("kubernetes.io/metadata.name", namespace);
        return labels;
    }
}
