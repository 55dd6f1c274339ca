package io.batchyard.teststack.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.teststack.Management;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operations of a service as its own OpenAPI document ({@code /q/openapi?format=json} on its management interface)
 * describes them.
 */
public final class OpenApiOperations {

    public record Param(String name, String in, boolean required, JsonNode schema) {
    }

    public record Operation(String method, String path, List<Param> params, List<String> bodyTypes, JsonNode bodySchema,
                     Set<String> otherMethods) {

        public String id() {
            return method + " " + path;
        }

        public List<Param> in(String where) {
            return params.stream().filter(p -> p.in().equals(where)).toList();
        }
    }

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch");

    private final JsonNode document;

    public OpenApiOperations(JsonNode document) {
        this.document = document;
    }

    /** The operations the service whose management interface this is serves now. */
    public static OpenApiOperations of(Management management) {
        return new OpenApiOperations(management.openApiDocument());
    }

    public List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> path = paths.next();
            Set<String> defined = new java.util.TreeSet<>();
            path.getValue().fieldNames().forEachRemaining(m -> {
                if (METHODS.contains(m)) {
                    defined.add(m.toUpperCase());
                }
            });
            for (String method : defined) {
                JsonNode op = path.getValue().path(method.toLowerCase());
                List<Param> params = new ArrayList<>();
                for (JsonNode p : iterable(path.getValue().path("parameters"))) {
                    params.add(param(p));
                }
                for (JsonNode p : iterable(op.path("parameters"))) {
                    params.add(param(p));
                }
                List<String> bodyTypes = new ArrayList<>();
                JsonNode bodySchema = null;
                JsonNode content = resolve(op.path("requestBody")).path("content");
                Iterator<Map.Entry<String, JsonNode>> types = content.fields();
                while (types.hasNext()) {
                    Map.Entry<String, JsonNode> type = types.next();
                    bodyTypes.add(type.getKey());
                    if (bodySchema == null) {
                        bodySchema = resolve(type.getValue().path("schema"));
                    }
                }
                Set<String> others = new java.util.TreeSet<>(Set.of("GET", "PUT", "POST", "DELETE", "PATCH"));
                others.removeAll(defined);
                operations.add(new Operation(method, path.getKey(), params, bodyTypes, bodySchema, others));
            }
        }
        return operations;
    }

    private Param param(JsonNode p) {
        JsonNode resolved = resolve(p);
        return new Param(resolved.path("name").asText(), resolved.path("in").asText(),
                resolved.path("required").asBoolean(false), resolve(resolved.path("schema")));
    }

    /** Follows {@code $ref} (and a single-element {@code allOf}) to the schema it names. */
    JsonNode resolve(JsonNode node) {
        JsonNode current = node;
        for (int i = 0; i < 10 && current != null; i++) {
            if (current.has("$ref")) {
                String ref = current.get("$ref").asText();
                current = document.at(ref.substring(1));
            } else if (current.has("allOf") && current.get("allOf").size() == 1 && !current.has("properties")) {
                current = current.get("allOf").get(0);
            } else {
                return current;
            }
        }
        return current;
    }

    static Iterable<JsonNode> iterable(JsonNode node) {
        return node::elements;
    }
}
