package io.batchyard.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/** The rendered base and overlays (rendered once per test run) and look-ups over them. */
final class Manifests {

    static final Path K8S = Path.of(".").toAbsolutePath().normalize();
    /** The services' namespace (the base's) and the one execution-service's kubernetes launcher runs jobs in. */
    static final String NAMESPACE = "batchyard";
    static final String JOBS_NAMESPACE = "batchyard-jobs";
    /** What can be applied, by name: the base and both overlays. */
    static final Map<String, Path> TREES = Map.of(
            "base", K8S.resolve("base"),
            "local", K8S.resolve("overlays/local"),
            "production", K8S.resolve("overlays/production"));

    private static final Map<String, Manifests> RENDERED = new ConcurrentHashMap<>();

    final String tree;
    final List<ObjectNode> resources;

    private Manifests(String tree, List<ObjectNode> resources) {
        this.tree = tree;
        this.resources = resources;
    }

    static Manifests of(String tree) {
        return RENDERED.computeIfAbsent(tree, t -> new Manifests(t, List.copyOf(Kustomize.render(TREES.get(t)))));
    }

    static Stream<String> trees() {
        return Stream.of("base", "local", "production");
    }

    /** The trees that are applied: the overlays, which add the jobs' namespace (../jobs) to the base. */
    static Stream<String> overlays() {
        return Stream.of("local", "production");
    }

    Stream<ObjectNode> kind(String kind) {
        return resources.stream().filter(r -> r.path("kind").asText().equals(kind));
    }

    /** A resource of the services' namespace, or a cluster-scoped one (a Namespace). */
    Optional<ObjectNode> find(String kind, String name) {
        return kind(kind).filter(r -> name(r).equals(name))
                .filter(r -> namespace(r).isEmpty() || namespace(r).equals(NAMESPACE)).findFirst();
    }

    ObjectNode get(String kind, String name) {
        return find(kind, name).orElseThrow(() -> new AssertionError(tree + ": no " + kind + " " + name));
    }

    /** A resource of the given namespace. */
    ObjectNode get(String namespace, String kind, String name) {
        return kind(kind).filter(r -> name(r).equals(name) && namespace(r).equals(namespace)).findFirst()
                .orElseThrow(() -> new AssertionError(tree + ": no " + kind + " " + namespace + "/" + name));
    }

    static String name(JsonNode r) {
        return r.path("metadata").path("name").asText();
    }

    /** The resource's namespace; empty for a cluster-scoped one. */
    static String namespace(JsonNode r) {
        return r.path("metadata").path("namespace").asText();
    }

    /** What identifies a resource in a cluster: its API version, kind, namespace and name. */
    static String id(JsonNode r) {
        return r.path("apiVersion").asText() + " " + r.path("kind").asText() + " " + namespace(r) + "/" + name(r);
    }

    /** The one container of a Deployment's pods named like the Deployment. */
    static JsonNode container(JsonNode deployment) {
        for (JsonNode c : deployment.at("/spec/template/spec/containers")) {
            if (c.path("name").asText().equals(name(deployment))) {
                return c;
            }
        }
        throw new AssertionError("Deployment " + name(deployment) + " has no container of its name");
    }

    /** A container's env entry by name, or a missing node. */
    static JsonNode env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (e.path("name").asText().equals(name)) {
                return e;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    @Override
    public String toString() {
        return tree;
    }
}
