package io.batchyard.cli.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.cli.bdre.HttpRegistry;
import io.batchyard.client.ClientSettings;
import io.batchyard.client.ProblemException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An application's live state as a {@link Pipeline} (ids turned into names) with each process's version, read from
 * registry-service (and each parent's trigger policy from execution-service) over the transport of {@link
 * HttpRegistry}, with the client settings' token and retry rule; the call that applies a plan, and the trigger
 * policies set after it.
 */
public final class LiveRegistry {

    /** How long a new parent may take to reach execution-service's read model (through Kafka). */
    private static final Duration KNOWN_WITHIN = Duration.ofSeconds(60);

    private final HttpRegistry http;
    /** execution-service, over the same transport: its settings name execution-service as the service to call. */
    private final HttpRegistry execution;
    /** execution-service's code for a process that is not a live parent it knows (GET/PUT …/trigger). */
    private static final int UNKNOWN_PARENT = 427;
    /** execution-service's code for an input that no live step of the parent enqueues from (PUT …/trigger). */
    private static final int NOT_AN_INPUT = 436;

    /** Other applications' names by id, and processes by id, for enqueuing processes outside the application. */
    private final Map<Long, String> applicationNames = new HashMap<>();
    private final Map<Long, JsonNode> foreignProcesses = new HashMap<>();

    public LiveRegistry(ClientSettings settings) {
        this.http = new HttpRegistry(settings);
        this.execution = new HttpRegistry(new ClientSettings(settings.execution(), settings.queue(),
                settings.execution(), settings.tokens(), settings.retry()));
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
                steps.add(process(s, parent, byId, id, List.of(), null, null));
                unique(versions, Plan.label(text(parent, "name"), text(s, "name")), s.get("version").asInt());
            }
            long pid = parent.get("id").asLong();
            parents.add(process(parent, parent, byId, id, steps, trigger(pid, byId, id), deadlines(pid)));
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
                                     List<Pipeline.Process> steps, Pipeline.Trigger trigger,
                                     Pipeline.Deadlines deadlines) {
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
                enqueuing, next, properties, steps, trigger, deadlines);
    }

    /** A parent's data deadlines, null when it has none (404). */
    private Pipeline.Deadlines deadlines(long parentId) {
        try {
            JsonNode d = http.send("GET", "/processes/" + parentId + "/deadlines", null).orElseThrow();
            return new Pipeline.Deadlines(text(d, "grain"), text(d, "cron"), text(d, "zone"), text(d, "startBy"),
                    text(d, "finishBy"), text(d, "maxRuntime"));
        } catch (ProblemException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    /**
     * A parent's trigger settings as a file holds them, null for {@code none}. A parent execution-service does not
     * know yet (427: its read model follows the registry through Kafka) has had no policy set, so it has none.
     */
    private Pipeline.Trigger trigger(long parentId, Map<Long, JsonNode> byId, long applicationId) {
        JsonNode t;
        try {
            t = execution.send("GET", "/processes/" + parentId + "/trigger", null).orElseThrow();
        } catch (ProblemException e) {
            if (e.code() != null && e.code() == UNKNOWN_PARENT) {
                return null;
            }
            throw e;
        }
        List<Pipeline.Ref> inputs = null;
        // inputs in force but not declared (every enqueuing process of the steps) are written as none
        if (t.path("inputs").isArray() && !t.path("defaultInputs").asBoolean(false)) {
            inputs = new ArrayList<>();
            for (JsonNode input : t.get("inputs")) {
                inputs.add(ref(input.asLong(), byId, applicationId));
            }
        }
        return new Pipeline.Trigger(text(t, "policy"), inputs, t.hasNonNull("n") ? t.get("n").asInt() : null,
                text(t, "timeout"), text(t, "grain"), text(t, "zone"),
                t.hasNonNull("coalesce") ? t.get("coalesce").asBoolean() : null).normalised();
    }

    /**
     * Sets each parent's trigger settings in execution-service, after the registry's transaction committed: a parent
     * just created is retried (427, and 436 for an input its new steps enqueue from) until execution-service's read model
     * knows it, for up to a minute. Inputs are
     * named in the file and sent as the ids they have after the apply.
     */
    public void setTriggers(String application, Map<String, Pipeline.Trigger> triggers) {
        if (triggers.isEmpty()) {
            return;
        }
        Map<String, Long> parents = parentsOf(application);
        Instant until = Instant.now().plus(KNOWN_WITHIN);
        for (Map.Entry<String, Pipeline.Trigger> e : triggers.entrySet()) {
            long id = parents.get(e.getKey());
            Map<String, Object> body = settings(e.getValue(), application, parents);
            while (true) {
                try {
                    execution.send("PUT", "/processes/" + id + "/trigger", body);
                    break;
                } catch (ProblemException refused) {
                    if (!notYetKnown(refused) || Instant.now().isAfter(until)) {
                        throw refused;
                    }
                    pause();
                }
            }
        }
    }

    /**
     * execution-service's read model follows the registry through Kafka: right after an apply it may not know the
     * parent yet (427), or not yet the steps that name an input as their enqueuing process (436).
     */
    private static boolean notYetKnown(ProblemException refused) {
        return refused.code() != null && (refused.code() == UNKNOWN_PARENT || refused.code() == NOT_AN_INPUT);
    }

    /** The body of {@code PUT …/trigger}: the fields the file sets (the others take the service's defaults). */
    private Map<String, Object> settings(Pipeline.Trigger t, String application, Map<String, Long> parents) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("policy", t.policy());
        if (t.inputs() != null) {
            List<Long> ids = new ArrayList<>();
            for (Pipeline.Ref input : t.inputs()) {
                Map<String, Long> of = input.application() == null || input.application().equals(application)
                        ? parents : parentsOf(input.application());
                Long inputId = of.get(input.process());
                if (inputId == null) {
                    throw new IllegalArgumentException("trigger input '" + input + "' names no parent process");
                }
                ids.add(inputId);
            }
            body.put("inputs", ids);
        }
        putIfSet(body, "n", t.n());
        putIfSet(body, "timeout", t.timeout());
        putIfSet(body, "grain", t.grain());
        putIfSet(body, "zone", t.zone());
        putIfSet(body, "coalesce", t.coalesce());
        return body;
    }

    private static void putIfSet(Map<String, Object> body, String field, Object value) {
        if (value != null) {
            body.put(field, value);
        }
    }

    /**
     * Sets (or, for a null value, removes) each parent's data deadlines in the registry, after the plan's
     * transaction committed: each is a call of its own, like a trigger policy.
     */
    public void setDeadlines(String application, Map<String, Pipeline.Deadlines> deadlines) {
        if (deadlines.isEmpty()) {
            return;
        }
        Map<String, Long> parents = parentsOf(application);
        for (Map.Entry<String, Pipeline.Deadlines> e : deadlines.entrySet()) {
            long id = parents.get(e.getKey());
            if (e.getValue() == null) {
                http.send("DELETE", "/processes/" + id + "/deadlines", null);
            } else {
                http.send("PUT", "/processes/" + id + "/deadlines", e.getValue());
            }
        }
    }

    /** The application's parents by name, as they are after an apply. */
    private Map<String, Long> parentsOf(String application) {
        long applicationId = http.pages("/applications?name=" + URLEncoder.encode(application,
                StandardCharsets.UTF_8)).stream().filter(a -> application.equals(a.path("name").asText()))
                .findFirst().orElseThrow(() -> new IllegalStateException("application '" + application
                        + "' not found after the apply")).get("id").asLong();
        Map<String, Long> parents = new HashMap<>();
        http.pages("/processes?parentsOnly=true&applicationId=" + applicationId)
                .forEach(p -> parents.put(text(p, "name"), p.get("id").asLong()));
        return parents;
    }

    private static void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for execution-service to know a parent", e);
        }
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
