package io.batchyard.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders a kustomization the way {@code kubectl kustomize} does, for exactly the features deploy/k8s uses:
 * {@code resources} (files, and directories holding a kustomization), {@code namespace}, {@code labels} (pairs on
 * metadata.labels only), {@code images} (newName/newTag/digest on every containers[]/initContainers[] image) and
 * {@code patches} from files, matched by kind and name, or applied to every resource a {@code target} (group, version,
 * kind, name) selects. Patches of built-in kinds are strategic merges (lists of containers, env, volumes,
 * volumeMounts, ports merged by their key); patches of custom resources are JSON merge patches (lists replaced), as
 * Kustomize does for kinds it has no schema for.
 *
 * <p>Any other key, option or patch directive is refused with an exception: a feature this renderer does not know
 * must fail the build instead of rendering something Kustomize would not. {@code KustomizeCrossCheckTest} compares
 * the result with the real {@code kubectl kustomize} wherever that binary is installed.
 */
final class Kustomize {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static final Set<String> KNOWN_KEYS = Set.of("apiVersion", "kind", "namespace", "labels", "resources",
            "images", "patches");
    /** Cluster-scoped kinds among the ones deploy/k8s uses: the namespace transformer leaves them alone. */
    private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "ClusterRole", "ClusterRoleBinding",
            "CustomResourceDefinition", "PersistentVolume", "StorageClass", "PriorityClass", "IngressClass");
    /** List fields of built-in kinds that a strategic merge patch merges item by item, and the key of an item. */
    private static final Map<String, String> MERGE_KEYS = Map.of("containers", "name", "initContainers", "name",
            "ephemeralContainers", "name", "env", "name", "volumes", "name", "volumeMounts", "mountPath",
            "imagePullSecrets", "name");

    private Kustomize() {
    }

    /** The resources of the kustomization in {@code dir}, in the order its resources list them. */
    static List<ObjectNode> render(Path dir) {
        ObjectNode k = (ObjectNode) readAll(dir.resolve("kustomization.yaml")).get(0);
        for (Iterator<String> it = k.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KNOWN_KEYS.contains(key)) {
                throw new IllegalArgumentException(dir + ": kustomization key '" + key + "' is not supported by this renderer");
            }
        }
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode r : k.path("resources")) {
            Path p = dir.resolve(r.asText()).normalize();
            if (Files.isDirectory(p)) {
                out.addAll(render(p));
            } else {
                for (JsonNode doc : readAll(p)) {
                    out.add((ObjectNode) doc);
                }
            }
        }
        for (JsonNode patch : k.path("patches")) {
            applyPatch(dir, (ObjectNode) patch, out);
        }
        if (k.has("namespace")) {
            String ns = k.get("namespace").asText();
            for (ObjectNode res : out) {
                if (!CLUSTER_SCOPED.contains(res.path("kind").asText())) {
                    ((ObjectNode) res.get("metadata")).put("namespace", ns);
                }
            }
        }
        for (JsonNode label : k.path("labels")) {
            for (Iterator<String> it = label.fieldNames(); it.hasNext(); ) {
                String key = it.next();
                if (!key.equals("pairs") && !(label.get(key).isBoolean() && !label.get(key).asBoolean())) {
                    throw new IllegalArgumentException(dir + ": labels option '" + key + "' is not supported by this renderer");
                }
            }
            for (ObjectNode res : out) {
                ObjectNode meta = (ObjectNode) res.get("metadata");
                ObjectNode labels = meta.has("labels") ? (ObjectNode) meta.get("labels") : meta.putObject("labels");
                label.get("pairs").fields().forEachRemaining(e -> labels.set(e.getKey(), e.getValue().deepCopy()));
            }
        }
        for (JsonNode image : k.path("images")) {
            for (ObjectNode res : out) {
                retag(res, image);
            }
        }
        return out;
    }

    static List<JsonNode> readAll(Path file) {
        try (YAMLParser parser = ((YAMLFactory) YAML.getFactory()).createParser(file.toFile())) {
            List<JsonNode> docs = new ArrayList<>();
            for (Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }

    private static void applyPatch(Path dir, ObjectNode entry, List<ObjectNode> resources) {
        for (Iterator<String> it = entry.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!key.equals("path") && !key.equals("target")) {
                throw new IllegalArgumentException(dir + ": patch option '" + key + "' is not supported by this renderer");
            }
        }
        Path file = dir.resolve(entry.get("path").asText());
        for (JsonNode doc : readAll(file)) {
            ObjectNode patch = (ObjectNode) doc;
            List<ObjectNode> targets = entry.has("target")
                    ? resources.stream().filter(r -> selects(entry.get("target"), r)).toList()
                    : resources.stream().filter(r -> sameKindAndName(patch, r)).toList();
            if (targets.isEmpty()) {
                throw new IllegalArgumentException(file + ": the patch of " + patch.path("kind").asText() + " "
                        + patch.path("metadata").path("name").asText() + " matches no resource");
            }
            for (ObjectNode target : targets) {
                ObjectNode body = patch.deepCopy();
                // A targeted patch names a placeholder; the resource keeps its own identity.
                body.remove("apiVersion");
                body.remove("kind");
                ((ObjectNode) body.get("metadata")).remove("name");
                merge(target, body, isBuiltIn(target.path("apiVersion").asText()));
            }
        }
    }

    private static boolean selects(JsonNode target, ObjectNode r) {
        for (Iterator<String> it = target.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!Set.of("group", "version", "kind", "name").contains(key)) {
                throw new IllegalArgumentException("patch target field '" + key + "' is not supported by this renderer");
            }
        }
        String apiVersion = r.path("apiVersion").asText();
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        return (!target.has("group") || target.get("group").asText().equals(group))
                && (!target.has("version") || target.get("version").asText().equals(version))
                && (!target.has("kind") || target.get("kind").asText().equals(r.path("kind").asText()))
                && (!target.has("name") || target.get("name").asText().equals(r.path("metadata").path("name").asText()));
    }

    private static boolean sameKindAndName(ObjectNode patch, ObjectNode r) {
        return patch.path("kind").asText().equals(r.path("kind").asText())
                && patch.path("metadata").path("name").asText().equals(r.path("metadata").path("name").asText());
    }

    /** Built-in API groups: the core group, the unqualified ones (apps, batch, policy...) and *.k8s.io. */
    static boolean isBuiltIn(String apiVersion) {
        if (!apiVersion.contains("/")) {
            return true;
        }
        String group = apiVersion.substring(0, apiVersion.indexOf('/'));
        return !group.contains(".") || group.endsWith(".k8s.io");
    }

    private static void merge(ObjectNode dst, ObjectNode patch, boolean strategic) {
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String field = e.getKey();
            JsonNode value = e.getValue();
            if (field.startsWith("$")) {
                throw new IllegalArgumentException("patch directive '" + field + "' is not supported by this renderer");
            }
            JsonNode current = dst.get(field);
            if (value.isNull()) {
                dst.remove(field);
            } else if (value.isObject() && current != null && current.isObject()) {
                merge((ObjectNode) current, (ObjectNode) value, strategic);
            } else if (value.isArray() && current != null && current.isArray() && strategic && mergeKey(field, value) != null) {
                mergeList((ArrayNode) current, (ArrayNode) value, mergeKey(field, value));
            } else {
                dst.set(field, value.deepCopy());
            }
        }
    }

    private static String mergeKey(String field, JsonNode items) {
        if (field.equals("ports")) {
            // Container ports merge by containerPort, Service ports by port.
            return items.size() > 0 && items.get(0).has("containerPort") ? "containerPort" : "port";
        }
        return MERGE_KEYS.get(field);
    }

    /**
     * Kustomize's order: the patch's items first (merged into their originals where the key matches), in the patch's
     * order, then the original items the patch does not name. Order matters for env: $(VAR) sees only earlier ones.
     */
    private static void mergeList(ArrayNode dst, ArrayNode patch, String key) {
        List<JsonNode> merged = new ArrayList<>();
        List<JsonNode> rest = new ArrayList<>();
        dst.forEach(rest::add);
        for (JsonNode item : patch) {
            JsonNode match = null;
            for (JsonNode existing : rest) {
                if (existing.path(key).equals(item.path(key))) {
                    match = existing;
                }
            }
            if (match != null) {
                rest.remove(match);
                merge((ObjectNode) match, (ObjectNode) item, true);
                merged.add(match);
            } else {
                merged.add(item.deepCopy());
            }
        }
        dst.removeAll();
        merged.forEach(dst::add);
        rest.forEach(dst::add);
    }

    private static void retag(JsonNode node, JsonNode image) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if ((e.getKey().equals("containers") || e.getKey().equals("initContainers")) && e.getValue().isArray()) {
                    for (JsonNode c : e.getValue()) {
                        if (c.has("image") && imageName(c.get("image").asText()).equals(image.get("name").asText())) {
                            ((ObjectNode) c).put("image", newImage(c.get("image").asText(), image));
                        }
                    }
                }
                retag(e.getValue(), image);
            }
        } else if (node.isArray()) {
            node.forEach(n -> retag(n, image));
        }
    }

    static String imageName(String image) {
        String s = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int colon = s.lastIndexOf(':');
        return colon > s.lastIndexOf('/') ? s.substring(0, colon) : s;
    }

    private static String newImage(String old, JsonNode image) {
        for (Iterator<String> it = image.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!Set.of("name", "newName", "newTag", "digest").contains(key)) {
                throw new IllegalArgumentException("images option '" + key + "' is not supported by this renderer");
            }
        }
        String name = image.has("newName") ? image.get("newName").asText() : imageName(old);
        if (image.has("digest")) {
            return name + "@" + image.get("digest").asText();
        }
        String rest = old.substring(imageName(old).length());
        return image.has("newTag") ? name + ":" + image.get("newTag").asText() : name + rest;
    }
}
