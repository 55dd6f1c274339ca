package io.batchyard.cli.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.cli.bdre.HttpRegistry;
import io.batchyard.client.ProblemException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An application's live state as a {@link Pipeline} (ids turned into names) with each process's version, read from
 * registry-service over the calls {@link HttpRegistry} makes; and the one call that applies a plan.
 */
public final class LiveRegistry {

    private final HttpRegistry http;
    /** Other applications' names by id, and processes by id, for enqueuing processes outside the application. */
    private final Map<Long, String> applicationNames = new HashMap<>();
    private final Map<Long, JsonNode> foreignProcesses = new HashMap<>();

    public LiveRegistry(HttpRegistry http) {
        this.http = http;
    }

    /** The application's live state; {@link Plan.Live#absent()} when there is no application of that name. */
    public Plan.Live read(String application) {
        Optional<JsonNode> found = http.pages("/applications?name=" + URLEncoder.encode(application,
                StandardCharsets.UTF_8)).stream().filter(a -> application.equals(a.path("name").asText())).findFirst();
        if (found.isEmpty()) {
            return Plan.Live.absent();
        }
        long id = found.get().get("id").asLong();
        JsonNode app = http.send("GET", "/applications/" + id, null).orElseThrow();
        Pipeline.Permissions permissions = permissions(id);
        List<JsonNode> rows = http.pages("/processes?applicationId=" + id).stream()
                .sorted(Comparator.comparingLong(p -> p.get("id").asLong())).toList();
        Map<Long, JsonNode> byId = new LinkedHashMap<>();
        rows.forEach(r -> byId.put(r.get("id").asLong(), r));
        Map<String, Integer> versions = new LinkedHashMap<>();
        List<Pipeline.Process> parents = new ArrayList<>();
        for (JsonNode parent : rows) {
            if (parent.hasNonNull("parentProcessId")) {
                continue;
            }
            List<JsonNode> stepRows = rows.stream().filter(r -> r.path("parentProcessId").asLong()
                    == parent.get("id").asLong()).toList();
            List<Pipeline.Process> steps = new ArrayList<>();
            for (JsonNode s : stepRows) {
                steps.add(process(s, parent, byId, id, List.of()));
                unique(versions, Plan.label(text(parent, "name"), text(s, "name")), s.get("version").asInt());
            }
            parents.add(process(parent, parent, byId, id, steps));
            unique(versions, Plan.label(text(parent, "name"), null), parent.get("version").asInt());
        }
        Pipeline pipeline = new Pipeline(Pipeline.API_VERSION, new Pipeline.Application(text(app, "name"),
                text(app, "description"), text(app, "owner"), permissions), parents).sorted();
        return new Plan.Live(pipeline, versions);
    }

    /** {@code POST /pipelines/apply}: the plan's request, applied in one transaction or refused whole. */
    public JsonNode apply(Map<String, Object> request) {
        return http.send("POST", "/pipelines/apply", request).orElseThrow();
    }

    /** Names identify processes in a file: two processes of one tree (or two parents) named alike cannot be written. */
    private static void unique(Map<String, Integer> versions, String label, int version) {
        if (versions.putIfAbsent(label, version) != null) {
            throw new IllegalArgumentException("two processes are named '" + label + "': a pipeline file names "
                    + "processes, so names must be unique among parents and within a tree; rename one first");
        }
    }

    /** The owner's and administrators' view only; null for anyone else (the file then leaves them alone). */
    private Pipeline.Permissions permissions(long applicationId) {
        try {
            JsonNode p = http.send("GET", "/applications/" + applicationId + "/permissions", null).orElseThrow();
            return new Pipeline.Permissions(text(p, "ownerUser"), text(p, "ownerGroup"), p.path("owner").asInt(),
                    p.path("group").asInt(), p.path("others").asInt());
        } catch (ProblemException e) {
            if (e.status() == 403 || e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    private Pipeline.Process process(JsonNode p, JsonNode parent, Map<Long, JsonNode> byId, long applicationId,
                                     List<Pipeline.Process> steps) {
        List<Pipeline.Ref> enqueuing = new ArrayList<>();
        p.path("enqueuingProcessIds").forEach(e -> enqueuing.add(ref(e.asLong(), byId, applicationId)));
        List<String> next = new ArrayList<>();
        p.path("nextProcessIds").forEach(n -> {
            JsonNode target = byId.get(n.asLong());
            if (target == null || (target.get("id").asLong() != parent.get("id").asLong()
                    && target.path("parentProcessId").asLong() != parent.get("id").asLong())) {
                throw new IllegalArgumentException("process " + p.get("id") + " names process " + n
                        + " as next, which is not in its tree");
            }
            next.add(text(target, "name"));
        });
        List<Pipeline.Property> properties = new ArrayList<>();
        http.send("GET", "/processes/" + p.get("id").asLong() + "/properties", null).orElseThrow().forEach(q -> {
            boolean secret = q.path("secret").asBoolean();
            String description = text(q, "description");
            properties.add(new Pipeline.Property(text(q, "configGroup"), text(q, "key"), secret ? null
                    : text(q, "value"), description == null || description.isEmpty() ? null : description,
                    secret ? Boolean.TRUE : null));
        });
        return new Pipeline.Process(text(p, "name"), text(p, "description"), p.path("processTypeId").asInt(),
                p.path("workflowTypeId").asInt(), p.path("canRecover").asBoolean(), text(p, "batchCutPattern"),
                enqueuing, next, properties, steps);
    }

    /** An enqueuing process by name: bare in the same application, with its application's name otherwise. */
    private Pipeline.Ref ref(long processId, Map<Long, JsonNode> byId, long applicationId) {
        JsonNode own = byId.get(processId);
        if (own != null) {
            return new Pipeline.Ref(null, text(own, "name"));
        }
        JsonNode other = foreignProcesses.computeIfAbsent(processId,
                id -> http.send("GET", "/processes/" + id, null).orElseThrow());
        long app = other.get("applicationId").asLong();
        String name = applicationNames.computeIfAbsent(app,
                a -> text(http.send("GET", "/applications/" + a, null).orElseThrow(), "name"));
        return app == applicationId ? new Pipeline.Ref(null, text(other, "name")) : new Pipeline.Ref(name,
                text(other, "name"));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
