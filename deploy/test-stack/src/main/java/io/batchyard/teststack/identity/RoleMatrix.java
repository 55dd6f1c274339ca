package io.batchyard.teststack.identity;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.api.access.AccessPolicy;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.fuzz.OpenApiOperations;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a running service against its rows of the access policy ({@link AccessPolicy}, the one table of who may do
 * what): every operation of the service's live OpenAPI document has a rule and every rule an operation; then, for
 * every operation, a call without a token answers 401, and so does one with a validly signed administrator's token
 * issued for another audience or for none (the service takes only tokens meant for Batchyard), a call with a role
 * below the rule 403, and a call with the lowest allowed role neither. The service's README documents the same
 * table, and must say the same: it sits between {@code <!-- role-matrix:begin -->} and
 * {@code <!-- role-matrix:end -->}, one row per operation: {@code | `GET /processes/{id}` | viewer | read |}.
 */
public final class RoleMatrix {

    private static final Pattern ROW =
            Pattern.compile("^\\|\\s*`(GET|PUT|POST|DELETE|PATCH) ([^`]+)`\\s*\\|\\s*(\\w+)\\s*\\|\\s*([\\w-]+)\\s*\\|");
    /** Ids no test creates: the lowest allowed role gets a 404 or a 4xx of validation, and nothing changes. */
    private static final String NO_SUCH_ID = "987654321";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private RoleMatrix() {
    }

    /** The documented rules: "METHOD /path" → lowest role. */
    public static Map<String, String> documented(Path readme) {
        Map<String, String> roles = new LinkedHashMap<>();
        documentedRules(readme).forEach((op, rule) -> roles.put(op, rule.split(" ")[0]));
        return roles;
    }

    /** The documented rules: "METHOD /path" → "lowest-role application-permission". */
    static Map<String, String> documentedRules(Path readme) {
        String text;
        try {
            text = Files.readString(readme);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int begin = text.indexOf("<!-- role-matrix:begin -->");
        int end = text.indexOf("<!-- role-matrix:end -->");
        assertTrue(begin >= 0 && end > begin, readme + " has no role-matrix table");
        Map<String, String> rules = new LinkedHashMap<>();
        for (String line : text.substring(begin, end).split("\n")) {
            Matcher m = ROW.matcher(line.trim());
            if (m.find()) {
                rules.put(m.group(1) + " " + m.group(2), m.group(3) + " " + m.group(4));
            }
        }
        return rules;
    }

    /** The policy's rules for {@code service}: "METHOD /path" → lowest role. */
    public static Map<String, String> policy(String service) {
        Map<String, String> rules = new LinkedHashMap<>();
        AccessPolicy.of(service).forEach(rule -> rules.put(rule.operation(), rule.role()));
        return rules;
    }

    /** The same with the application permission: "METHOD /path" → "lowest-role permission", as the README writes it. */
    static Map<String, String> policyRules(String service) {
        Map<String, String> rules = new LinkedHashMap<>();
        AccessPolicy.of(service).forEach(rule -> rules.put(rule.operation(),
                rule.role() + " " + rule.need().name().toLowerCase()));
        return rules;
    }

    /** Runs the whole check against the service RestAssured points at. */
    public static void check(String service, Path readme) {
        Map<String, String> rules = policy(service);
        assertEquals(new TreeMap<>(policyRules(service)), new TreeMap<>(documentedRules(readme)),
                readme + "'s role matrix differs from the access policy of " + service);
        List<OpenApiOperations.Operation> operations = liveOperations();
        Set<String> live = new TreeSet<>();
        operations.forEach(op -> live.add(op.id()));
        Set<String> undocumented = new TreeSet<>(live);
        undocumented.removeAll(rules.keySet());
        Set<String> stale = new TreeSet<>(rules.keySet());
        stale.removeAll(live);
        assertTrue(undocumented.isEmpty(), "operations without a rule in the access policy: " + undocumented);
        assertTrue(stale.isEmpty(), "access policy rules for operations " + service + " does not have: " + stale);

        List<String> failures = new ArrayList<>();
        Map<String, String> elsewhere = Map.of(
                "an admin token for audience 'elsewhere'",
                Identity.get().tokenForAudience("elsewhere", "matrix-elsewhere", "admin"),
                "an admin token for no audience", Identity.get().tokenForAudience(null, "matrix-no-audience", "admin"));
        for (OpenApiOperations.Operation op : operations) {
            String rule = rules.get(op.id());
            Response anonymous = call(given().noFilters(), op);
            expect(failures, op, "no token", anonymous, 401, 12);
            elsewhere.forEach((who, token) ->
                    expect(failures, op, who, call(given().auth().oauth2(token), op), 401, 12));
            for (String below : below(rule)) {
                Response refused = call(given().auth().oauth2(tokenWith(below)), op);
                expect(failures, op, below.isEmpty() ? "no role" : "role " + below, refused, 403, 13);
            }
            int allowed = statusOnly(tokenWith(rule), op);
            if (allowed == 401 || allowed == 403) {
                failures.add(op.id() + " with role " + rule + ": " + allowed);
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " role-matrix violation(s):\n" + String.join("\n", failures));
        }
    }

    /** The roles that must be refused: every role that neither is nor includes {@code rule} ("" = no role). */
    static List<String> below(String rule) {
        return switch (rule) {
            case "viewer" -> List.of("");
            case "operator" -> List.of("viewer", "developer");
            case "developer" -> List.of("viewer", "operator");
            case "admin" -> List.of("operator", "developer");
            case "service" -> List.of("admin");
            default -> throw new IllegalArgumentException("unknown role in the role matrix: " + rule);
        };
    }

    private static String tokenWith(String role) {
        return role.isEmpty()
                ? Identity.get().token("matrix-nobody", Set.of(), Set.of())
                : Identity.get().token("matrix-" + role, role);
    }

    private static void expect(List<String> failures, OpenApiOperations.Operation op, String who, Response r,
                               int status, int code) {
        Integer actual = r.statusCode() == status ? r.jsonPath().getObject("code", Integer.class) : null;
        if (r.statusCode() != status || actual == null || actual != code
                || !String.valueOf(r.contentType()).startsWith("application/problem+json")) {
            failures.add(op.id() + " with " + who + ": expected " + status + " problem+json code " + code + ", got "
                    + r.statusCode() + " " + r.contentType() + " " + r.asString());
        }
    }

    private static Response call(RequestSpecification spec, OpenApiOperations.Operation op) {
        for (Map.Entry<String, String> q : requiredQuery(op).entrySet()) {
            spec = spec.queryParam(q.getKey(), q.getValue());
        }
        if (!op.bodyTypes().isEmpty()) {
            spec = spec.contentType(op.bodyTypes().get(0)).body("{}");
        }
        return spec.urlEncodingEnabled(false).request(op.method(), path(op));
    }

    /** The operation's path with ids no test creates in its parameters. */
    private static String path(OpenApiOperations.Operation op) {
        String path = op.path();
        for (OpenApiOperations.Param p : op.in("path")) {
            path = path.replace("{" + p.name() + "}", integer(p) ? NO_SUCH_ID : "no_such_" + p.name());
        }
        return path;
    }

    private static Map<String, String> requiredQuery(OpenApiOperations.Operation op) {
        Map<String, String> query = new LinkedHashMap<>();
        for (OpenApiOperations.Param p : op.in("query")) {
            if (p.required()) {
                query.put(p.name(), integer(p) ? NO_SUCH_ID : "x");
            }
        }
        return query;
    }

    private static boolean integer(OpenApiOperations.Param p) {
        return (p.schema() == null ? "string" : p.schema().path("type").asText("string")).equals("integer");
    }

    /**
     * The status of an allowed call, without reading its body: a stream (Server-Sent Events) never ends, and the
     * status is all this check needs from an allowed call.
     */
    private static int statusOnly(String token, OpenApiOperations.Operation op) {
        List<String> query = new ArrayList<>();
        requiredQuery(op).forEach((name, value) -> query.add(name + "=" + value));
        URI uri = URI.create(RestAssured.baseURI + ":" + RestAssured.port + RestAssured.basePath.replaceAll("/$", "")
                + path(op) + (query.isEmpty() ? "" : "?" + String.join("&", query)));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
        if (op.bodyTypes().isEmpty()) {
            request.method(op.method(), HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", op.bodyTypes().get(0)).method(op.method(), HttpRequest.BodyPublishers.ofString("{}"));
        }
        try {
            HttpResponse<InputStream> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            response.body().close();
            return response.statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<OpenApiOperations.Operation> liveOperations() {
        return OpenApiOperations.of(Management.ofApplicationUnderTest()).operations();
    }
}
