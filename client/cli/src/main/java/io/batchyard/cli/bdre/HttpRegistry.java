package io.batchyard.cli.bdre;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.batchyard.client.BatchyardClient;
import io.batchyard.client.ClientSettings;
import io.batchyard.client.ProblemException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link Registry} over registry-service's REST API, through the client library's calls: its token source (a 401 is
 * retried once with a fresh token) and its retry rule for 503s and refused connections. A refusal is the library's
 * {@link ProblemException} with the registry's code. Server credentials travel in the request body only (the
 * registry encrypts them with Batchyard's key) and are never part of a message.
 */
public final class HttpRegistry implements Registry {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PAGE = 500;

    private final ClientSettings settings;
    private final BatchyardClient client;

    public HttpRegistry(ClientSettings settings) {
        this.settings = settings;
        this.client = new BatchyardClient(settings);
    }

    @Override
    public Map<Integer, Integer> processTypes() {
        Map<Integer, Integer> types = new HashMap<>();
        for (JsonNode t : send("GET", "/process-types", null).orElseThrow()) {
            types.put(t.get("id").asInt(), t.hasNonNull("parentTypeId") ? t.get("parentTypeId").asInt() : null);
        }
        return types;
    }

    @Override
    public Optional<Application> applicationNamed(String name) {
        return pages("/applications?name=" + encode(name)).stream().map(HttpRegistry::application)
                .filter(a -> a.name().equals(name)).findFirst();
    }

    @Override
    public Application createApplication(Application a) {
        return application(send("POST", "/applications", applicationBody(a)).orElseThrow());
    }

    @Override
    public void updateApplication(Application a) {
        send("PUT", "/applications/" + a.id(), applicationBody(a));
    }

    @Override
    public Permissions permissions(long applicationId) {
        JsonNode p = send("GET", "/applications/" + applicationId + "/permissions", null).orElseThrow();
        return new Permissions(text(p, "ownerUser"), text(p, "ownerGroup"), p.path("owner").asInt(),
                p.path("group").asInt(), p.path("others").asInt());
    }

    @Override
    public void setPermissions(long applicationId, Permissions p) {
        send("PUT", "/applications/" + applicationId + "/permissions", p);
    }

    @Override
    public Optional<Process> process(long id) {
        try {
            return send("GET", "/processes/" + id, null).map(HttpRegistry::process);
        } catch (ProblemException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public List<Process> processes(long applicationId) {
        return pages("/processes?applicationId=" + applicationId).stream().map(HttpRegistry::process).toList();
    }

    @Override
    public long createProcess(Process p) {
        ObjectNode body = JSON.createObjectNode();
        if (p.id() != null) {
            body.put("id", p.id());
        }
        body.put("name", p.name());
        body.put("description", p.description());
        body.put("applicationId", p.applicationId());
        body.put("processTypeId", p.typeId());
        if (p.parentId() != null) {
            body.put("parentProcessId", p.parentId());
        }
        body.put("canRecover", p.canRecover());
        body.set("enqueuingProcessIds", JSON.valueToTree(p.enqueuing()));
        body.put("batchCutPattern", p.batchCutPattern());
        body.set("nextProcessIds", JSON.valueToTree(p.next()));
        body.put("workflowTypeId", p.workflowTypeId());
        return send("POST", "/processes", body).orElseThrow().get("id").asLong();
    }

    @Override
    public void patchProcess(long id, Map<String, Object> patch) {
        send("PATCH", "/processes/" + id, patch);
    }

    @Override
    public List<Property> properties(long processId) {
        return properties(send("GET", "/processes/" + processId + "/properties", null).orElseThrow());
    }

    @Override
    public void putProperty(long processId, Property p) {
        send("PUT", "/processes/" + processId + "/properties/" + pathSegment(p.key()), propertyBody(p));
    }

    @Override
    public List<Template> templates() {
        return pages("/process-templates").stream().filter(t -> !t.path("deleted").asBoolean())
                .map(t -> new Template(t.get("templateId").asLong(), text(t, "name"), text(t, "description"),
                        t.get("applicationId").asLong(), t.get("processTypeId").asInt(), longOrNull(t, "parentTemplateId"),
                        t.path("canRecover").asBoolean(), text(t, "batchCutPattern"), ids(t, "nextTemplateIds"),
                        t.path("workflowTypeId").asInt())).toList();
    }

    @Override
    public long createTemplate(Template t) {
        ObjectNode body = JSON.createObjectNode();
        body.put("name", t.name());
        body.put("description", t.description());
        body.put("applicationId", t.applicationId());
        body.put("processTypeId", t.typeId());
        if (t.parentId() != null) {
            body.put("parentTemplateId", t.parentId());
        }
        body.put("canRecover", t.canRecover());
        body.put("batchCutPattern", t.batchCutPattern());
        body.set("nextTemplateIds", JSON.valueToTree(t.next()));
        body.put("workflowTypeId", t.workflowTypeId());
        return send("POST", "/process-templates", body).orElseThrow().get("templateId").asLong();
    }

    @Override
    public void patchTemplate(long id, Map<String, Object> patch) {
        send("PATCH", "/process-templates/" + id, patch);
    }

    @Override
    public List<Property> templateProperties(long templateId) {
        return properties(send("GET", "/process-templates/" + templateId + "/properties", null).orElseThrow());
    }

    @Override
    public void putTemplateProperty(long templateId, Property p) {
        send("PUT", "/process-templates/" + templateId + "/properties/" + pathSegment(p.key()), propertyBody(p));
    }

    @Override
    public List<Server> servers() {
        return pages("/servers").stream().map(s -> new Server(s.get("id").asLong(), text(s, "serverType"),
                text(s, "serverName"), text(s, "serverMetainfo"), text(s, "loginUser"), text(s, "serverIp"), null, null,
                s.path("hasLoginPassword").asBoolean(), s.path("hasSshPrivateKey").asBoolean())).toList();
    }

    @Override
    public long createServer(Server s) {
        return send("POST", "/servers", serverBody(s)).orElseThrow().get("id").asLong();
    }

    @Override
    public void updateServer(long id, Server s) {
        send("PUT", "/servers/" + id, serverBody(s));
    }

    // ---- bodies and answers ----

    private static Map<String, Object> applicationBody(Application a) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", a.name());
        body.put("description", a.description());
        body.put("owner", a.owner());
        return body;
    }

    private static Application application(JsonNode a) {
        return new Application(a.get("id").asLong(), text(a, "name"), text(a, "description"), text(a, "owner"));
    }

    private static Process process(JsonNode p) {
        return new Process(p.get("id").asLong(), text(p, "name"), text(p, "description"), p.get("applicationId").asLong(),
                p.get("processTypeId").asInt(), longOrNull(p, "parentProcessId"), p.path("canRecover").asBoolean(),
                ids(p, "enqueuingProcessIds"), text(p, "batchCutPattern"), ids(p, "nextProcessIds"),
                p.path("workflowTypeId").asInt(), p.path("deleted").asBoolean());
    }

    private static List<Property> properties(JsonNode list) {
        List<Property> out = new ArrayList<>();
        list.forEach(p -> out.add(new Property(text(p, "configGroup"), text(p, "key"), text(p, "value"),
                text(p, "description"), p.path("secret").asBoolean())));
        return out;
    }

    private static Map<String, Object> propertyBody(Property p) {
        Map<String, Object> body = new HashMap<>();
        body.put("configGroup", p.configGroup());
        body.put("value", p.value());
        body.put("description", p.description());
        return body;
    }

    private static ObjectNode serverBody(Server s) {
        ObjectNode body = JSON.createObjectNode();
        body.put("serverType", s.type());
        body.put("serverName", s.name());
        body.put("serverMetainfo", s.metainfo());
        body.put("loginUser", s.loginUser());
        body.put("serverIp", s.ip());
        if (s.loginPassword() != null) {
            body.put("loginPassword", s.loginPassword());
        }
        if (s.sshPrivateKey() != null) {
            body.put("sshPrivateKey", s.sshPrivateKey());
        }
        return body;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Long longOrNull(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asLong();
    }

    private static List<Long> ids(JsonNode n, String field) {
        List<Long> out = new ArrayList<>();
        n.path(field).forEach(v -> out.add(v.asLong()));
        return out;
    }

    /** A property key as one path segment: percent-encoded, a space as {@code %20} (a plus stays a plus). */
    static String pathSegment(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String encode(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    // ---- transport ----

    /** Every item of a paged list (the pipeline commands read the registry through this too). */
    public List<JsonNode> pages(String path) {
        List<JsonNode> all = new ArrayList<>();
        String sep = path.contains("?") ? "&" : "?";
        for (int offset = 0; ; offset += PAGE) {
            JsonNode page = send("GET", path + sep + "limit=" + PAGE + "&offset=" + offset, null).orElseThrow();
            page.path("items").forEach(all::add);
            if (page.path("items").size() < PAGE) {
                return all;
            }
        }
    }

    /** One call with the client library's token and retry rule; a refusal is the library's {@link ProblemException}. */
    public Optional<JsonNode> send(String method, String path, Object body) {
        return client.call(settings.registry(), method, path, body);
    }
}
