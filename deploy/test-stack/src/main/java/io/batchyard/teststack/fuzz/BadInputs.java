package io.batchyard.teststack.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.batchyard.teststack.fuzz.OpenApiOperations.Operation;
import io.batchyard.teststack.fuzz.OpenApiOperations.Param;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Bad requests for one operation: each starts from a well-formed request (real ids where the service has them) and
 * breaks one or more things on purpose. Everything is drawn from a seeded {@link Random}, so a run repeats exactly.
 */
final class BadInputs {

    static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String LONG = "x".repeat(10_000);

    /** Already percent-encoded path segments and query values an id or a name must refuse (or at least survive). */
    static final List<String> BAD_TEXT = List.of("abc", "1.5", "-1", "0", "99999999999999999999", "9223372036854775808",
            "-9223372036854775809", "1e3", "0x10", "NaN", "Infinity", "%201", "", "%00", "1%00", "a%00b", "%01",
            "%1F", "%7F", "%zz", "%", "%C3%28", "%F0%9F%92%A9", "%3B", "%2F", "%2e%2e", "..", "%27%20OR%201%3D1--",
            "x".repeat(300), "y".repeat(3000), "BOGUS_ENUM", "true", "%5B%5D", "%7B%7D");

    /** For free-text parameters, where most of {@link #BAD_TEXT} is legitimate text: only what no text may hold. */
    static final List<String> BAD_FREE_TEXT = List.of("%00", "1%00", "a%00b", "%zz", "%", "%C0%80", "z".repeat(9_000));

    static final List<String> MALFORMED_JSON = List.of("{", "}", "{\"a\":}", "[1,", "nul", "\"unterminated",
            "{\"a\":1}{", "{} trailing", "{\"a\":01}", "NaN", "{'a':1}", "{\"a\" 1}", "[".repeat(2_000), "\u0000",
            "{\"a\":\"\u0000\"}", "");

    static final List<String> WRONG_SHAPE = List.of("[]", "\"text\"", "42", "null", "true", "[{}]", "{}", "1.5");

    static final List<String> CONTENT_TYPES = List.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x", "application/json; charset=bogus", "application/json; charset=UTF-16",
            "application/octet-stream", "*/*", "image/png", "");

    static final List<String> ACCEPTS = List.of("text/csv", "application/xml", "image/png", "application/json;q=bogus");

    record Case(String what, RawHttp.Request request) {
    }

    private final Operation op;
    private final OpenApiOperations api;
    private final Random random;
    private final Function<Param, List<String>> knownValues;
    private final Set<String> noHugeNumbers;

    BadInputs(Operation op, OpenApiOperations api, Random random, Function<Param, List<String>> knownValues,
              Set<String> noHugeNumbers) {
        this.op = op;
        this.api = api;
        this.random = random;
        this.knownValues = knownValues;
        this.noHugeNumbers = noHugeNumbers;
    }

    List<Case> cases(int target) {
        List<Case> cases = new ArrayList<>();
        for (Param p : op.in("path")) {
            for (String bad : badFor(p)) {
                cases.add(build("path " + p.name() + "=" + bad, Map.of(p.name(), bad), Map.of(), null, null, null));
            }
            if (badFor(p) == BAD_FREE_TEXT) {
                cases.add(build("dot segment " + p.name(), Map.of(p.name(), ".."), Map.of(), null, null, null));
                cases.add(build("encoded dot segment " + p.name(), Map.of(p.name(), "%2e%2e"), Map.of(), null, null,
                        null));
            }
            cases.add(build("matrix on " + p.name(), Map.of(p.name(), valid(p) + ";x"), Map.of(), null, null, null));
            cases.add(build("matrix=v on " + p.name(), Map.of(p.name(), valid(p) + ";x=1"), Map.of(), null, null, null));
        }
        if (!op.path().contains("{")) {
            Case plain = build("matrix on the last segment", Map.of(), Map.of(), null, null, null);
            RawHttp.Request r = plain.request();
            String matrix = r.target().contains("?") ? r.target().replaceFirst("\\?", ";x?") : r.target() + ";x";
            cases.add(new Case(plain.what(), new RawHttp.Request(r.method(), matrix, r.headers(), r.body())));
        }
        for (Param p : op.in("query")) {
            for (String bad : badFor(p)) {
                cases.add(build("query " + p.name() + "=" + bad, Map.of(), Map.of(p.name(), bad), null, null, null));
            }
        }
        cases.add(build("query name with NUL", Map.of(), Map.of("a%00b", "1"), null, null, null));
        if (op.method().equals("GET")) {
            for (String accept : ACCEPTS) {
                cases.add(build("accept " + accept, Map.of(), Map.of("limit", "1.5"), null, null, accept));
            }
        }
        for (String method : op.otherMethods()) {
            cases.add(new Case("method " + method, new RawHttp.Request(method, path(Map.of()) + query(Map.of()),
                    Map.of("Content-Type", "application/json"), "{}".getBytes(StandardCharsets.UTF_8))));
        }
        if (op.bodySchema() != null) {
            for (String raw : MALFORMED_JSON) {
                cases.add(build("malformed body " + raw, Map.of(), Map.of(), raw, null, null));
            }
            for (String raw : WRONG_SHAPE) {
                cases.add(build("wrong shape " + raw, Map.of(), Map.of(), raw, null, null));
            }
            cases.add(build("invalid UTF-8 body", Map.of(), Map.of(), "{\"name\":\"\u00ff\u00fe\"}", null, null));
            String validBody = validBody().toString();
            for (String type : CONTENT_TYPES) {
                cases.add(build("content type '" + type + "'", Map.of(), Map.of(), validBody, type, null));
            }
            cases.add(new Case("no content type", request(path(Map.of()), query(Map.of()), Map.of(),
                    validBody.getBytes(StandardCharsets.UTF_8))));
            JsonNode schema = api.resolve(op.bodySchema());
            for (String field : properties(schema)) {
                JsonNode fieldSchema = api.resolve(schema.path("properties").path(field));
                for (JsonNode wrong : wrongValues(field, fieldSchema)) {
                    ObjectNode body = validBody();
                    body.set(field, wrong);
                    cases.add(build("field " + field + "=" + abbreviate(wrong.toString()), Map.of(), Map.of(),
                            body.toString(), null, null));
                }
            }
            for (JsonNode required : OpenApiOperations.iterable(schema.path("required"))) {
                ObjectNode body = validBody();
                body.remove(required.asText());
                cases.add(build("missing " + required.asText(), Map.of(), Map.of(), body.toString(), null, null));
            }
        }
        int fixed = cases.size();
        // Random mixtures of the above, so that several broken parts meet in one request.
        while (cases.size() < Math.max(target, fixed)) {
            cases.add(mixture());
        }
        return cases;
    }

    private Case mixture() {
        Map<String, String> path = new LinkedHashMap<>();
        Map<String, String> query = new LinkedHashMap<>();
        List<String> what = new ArrayList<>();
        for (Param p : op.in("path")) {
            if (random.nextInt(3) == 0) {
                String bad = pick(badFor(p));
                path.put(p.name(), bad);
                what.add(p.name() + "=" + bad);
            }
        }
        for (Param p : op.in("query")) {
            if (random.nextInt(2) == 0) {
                String bad = pick(badFor(p));
                query.put(p.name(), bad);
                what.add(p.name() + "=" + bad);
            }
        }
        String body = null;
        if (op.bodySchema() != null) {
            JsonNode schema = api.resolve(op.bodySchema());
            ObjectNode valid = validBody();
            List<String> fields = properties(schema);
            int breaks = 1 + random.nextInt(3);
            for (int i = 0; i < breaks && !fields.isEmpty(); i++) {
                String field = fields.get(random.nextInt(fields.size()));
                List<JsonNode> wrong = wrongValues(field, api.resolve(schema.path("properties").path(field)));
                JsonNode value = wrong.get(random.nextInt(wrong.size()));
                valid.set(field, value);
                what.add(field + "=" + abbreviate(value.toString()));
            }
            body = random.nextInt(8) == 0 ? pick(MALFORMED_JSON) : valid.toString();
        } else if (what.isEmpty()) {
            Param first = !op.in("path").isEmpty() ? op.in("path").get(0)
                    : !op.in("query").isEmpty() ? op.in("query").get(0) : null;
            String bad = pick(first == null ? BAD_FREE_TEXT : badFor(first));
            if (first == null) {
                query.put("q", bad);
            } else if (first.in().equals("path")) {
                path.put(first.name(), bad);
            } else {
                query.put(first.name(), bad);
            }
            what.add((first == null ? "q" : first.name()) + "=" + bad);
        }
        return build("mix " + String.join(", ", what), path, query, body, null, null);
    }

    private Case build(String what, Map<String, String> pathOverrides, Map<String, String> queryOverrides, String body,
                       String contentType, String accept) {
        Map<String, String> headers = new LinkedHashMap<>();
        String effectiveBody = body;
        if (effectiveBody == null && op.bodySchema() != null) {
            effectiveBody = validBody().toString();
        }
        if (effectiveBody != null) {
            String type = contentType != null ? contentType
                    : op.bodyTypes().isEmpty() ? "application/json" : op.bodyTypes().get(0);
            if (!type.isEmpty()) {
                headers.put("Content-Type", type);
            }
        }
        if (accept != null) {
            headers.put("Accept", accept);
        }
        return new Case(what, request(path(pathOverrides), query(queryOverrides), headers,
                effectiveBody == null ? null : effectiveBody.getBytes(StandardCharsets.UTF_8)));
    }

    private RawHttp.Request request(String path, String query, Map<String, String> headers, byte[] body) {
        return new RawHttp.Request(op.method(), path + query, headers, body);
    }

    private String path(Map<String, String> overrides) {
        String path = op.path();
        for (Param p : op.in("path")) {
            String value = overrides.containsKey(p.name()) ? overrides.get(p.name()) : valid(p);
            path = path.replace("{" + p.name() + "}", value);
        }
        return path;
    }

    private String query(Map<String, String> overrides) {
        StringBuilder q = new StringBuilder();
        for (Param p : op.in("query")) {
            String value = overrides.get(p.name());
            if (value == null && p.required()) {
                value = valid(p);
            }
            if (value != null) {
                q.append(q.isEmpty() ? "?" : "&").append(p.name()).append('=').append(value);
            }
        }
        overrides.forEach((name, value) -> {
            if (op.in("query").stream().noneMatch(p -> p.name().equals(name))) {
                q.append(q.isEmpty() ? "?" : "&").append(name).append('=').append(value);
            }
        });
        return q.toString();
    }

    /** A value of the parameter's type: one the service knows where possible, so the request reaches deep code. */
    private String valid(Param p) {
        List<String> known = knownValues.apply(p);
        if (!known.isEmpty()) {
            return known.get(random.nextInt(known.size()));
        }
        JsonNode v = validValue(p.name(), api.resolve(p.schema()), 0);
        return java.net.URLEncoder.encode(v.asText(), StandardCharsets.UTF_8).replace("+", "%20");
    }

    private List<String> badFor(Param p) {
        JsonNode s = api.resolve(p.schema());
        boolean freeText = s.path("type").asText("string").equals("string") && !s.has("enum") && !s.has("format")
                && !s.has("pattern");
        return freeText ? BAD_FREE_TEXT : BAD_TEXT;
    }

    ObjectNode validBody() {
        JsonNode v = validValue("body", api.resolve(op.bodySchema()), 0);
        return v instanceof ObjectNode o ? o : JSON.objectNode();
    }

    private JsonNode validValue(String name, JsonNode schema, int depth) {
        JsonNode s = api.resolve(schema);
        if (s.has("enum") && s.get("enum").size() > 0) {
            return s.get("enum").get(random.nextInt(s.get("enum").size()));
        }
        String type = s.path("type").asText(s.has("properties") ? "object" : "string");
        switch (type) {
            case "integer" -> {
                long min = s.has("minimum") ? s.get("minimum").asLong() : 1;
                return JSON.numberNode(Math.max(min, 1));
            }
            case "number" -> {
                return JSON.numberNode(1);
            }
            case "boolean" -> {
                return JSON.booleanNode(random.nextBoolean());
            }
            case "array" -> {
                ArrayNode array = JSON.arrayNode();
                if (depth < 4) {
                    array.add(validValue(name, s.path("items"), depth + 1));
                }
                return array;
            }
            case "object" -> {
                ObjectNode object = JSON.objectNode();
                if (depth < 4) {
                    Set<String> required = new java.util.HashSet<>();
                    s.path("required").forEach(r -> required.add(r.asText()));
                    for (String field : properties(s)) {
                        if (required.contains(field) || random.nextInt(3) > 0) {
                            object.set(field, validValue(field, s.path("properties").path(field), depth + 1));
                        }
                    }
                }
                return object;
            }
            default -> {
                String format = s.path("format").asText("");
                return switch (format) {
                    case "uuid" -> JSON.textNode(new UUID(random.nextLong(), random.nextLong()).toString());
                    case "date-time" -> JSON.textNode("2026-01-01T00:00:00Z");
                    case "date" -> JSON.textNode("2026-01-01");
                    case "duration" -> JSON.textNode("PT1M");
                    default -> JSON.textNode("fuzz" + random.nextInt(1_000_000));
                };
            }
        }
    }

    private List<JsonNode> wrongValues(String field, JsonNode schema) {
        List<JsonNode> wrong = new ArrayList<>(List.of(JSON.nullNode(), JSON.textNode("a\u0000b"),
                JSON.textNode("\u0001\u001f\u007f"), JSON.textNode(LONG), JSON.objectNode(), JSON.arrayNode(),
                JSON.booleanNode(true), JSON.textNode("\ud800"), JSON.textNode("")));
        String type = schema.path("type").asText(schema.has("properties") ? "object" : "string");
        switch (type) {
            case "integer", "number" -> {
                wrong.addAll(List.of(JSON.textNode("12"), JSON.numberNode(1.5), JSON.numberNode(-1), JSON.numberNode(0),
                        JSON.numberNode(-9_223_372_036_854_775_808L)));
                if (!noHugeNumbers.contains(field)) {
                    wrong.addAll(List.of(JSON.numberNode(new BigInteger("9223372036854775808")),
                            JSON.numberNode(new BigDecimal("1e400")), JSON.numberNode(2_147_483_648L),
                            JSON.numberNode(Long.MAX_VALUE)));
                }
            }
            case "string" -> wrong.addAll(List.of(JSON.numberNode(12), JSON.numberNode(-1.5), JSON.textNode("BOGUS_ENUM"),
                    JSON.textNode(" "), JSON.textNode("\ud834\udd1e"), JSON.textNode("2026-13-45T99:99:99Z")));
            case "boolean" -> wrong.addAll(List.of(JSON.textNode("yes"), JSON.numberNode(2)));
            case "array" -> {
                ArrayNode wrongItems = JSON.arrayNode();
                wrongItems.add(JSON.objectNode().put("x", "\u0000"));
                wrongItems.add(JSON.numberNode(new BigDecimal("1e400")));
                wrong.addAll(List.of(JSON.textNode("not-an-array"), wrongItems, JSON.numberNode(3)));
            }
            default -> wrong.addAll(List.of(JSON.textNode("not-an-object"), JSON.numberNode(3)));
        }
        return wrong;
    }

    private static List<String> properties(JsonNode schema) {
        List<String> names = new ArrayList<>();
        Iterator<String> it = schema.path("properties").fieldNames();
        it.forEachRemaining(names::add);
        return names;
    }

    private String pick(List<String> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static String abbreviate(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }
}
