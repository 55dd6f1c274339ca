package io.batchyard.teststack.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.fuzz.OpenApiOperations.Operation;
import io.batchyard.teststack.fuzz.OpenApiOperations.Param;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * An OpenAPI-driven REST fuzzer: reads a running service's own {@code /q/openapi} (on its management interface), sends
 * a few thousand seeded bad requests to every operation, and checks the error contract on each answer: never a 5xx,
 * every 4xx is {@code application/problem+json} with an integer {@code code}, and a rejected request changes no table
 * of the service's database. Requests that unexpectedly succeed are reported (and the table fingerprint is taken
 * afresh).
 *
 * <pre>{@code
 * RestFuzzer.Report report = new RestFuzzer(settings).run();
 * assertThat(report.failures()).isEmpty();
 * }</pre>
 */
public final class RestFuzzer {

    /**
     * @param host and port of the running service
     * @param management its management interface, which serves the OpenAPI document the fuzzer reads
     * @param jdbcUrl user password: the service's own database, fingerprinted around rejected requests
     * @param seed the run's seed; the same seed sends the same requests
     * @param casesPerOperation at least this many requests per operation (more where the fixed catalogue is larger)
     * @param knownIds values naming resources the caller created for the fuzzer, by path up to the parameter
     *                 ({@code "/processes/{id}"}) or by parameter name; see {@link #known}
     * @param noHugeNumbers body fields that must not receive numbers beyond the 64-bit range or near it
     * @param skipOperations operations ("POST /path/{id}") not fuzzed, each with a reason in the caller's code
     */
    public record Settings(String host, int port, Management management, String jdbcUrl, String user, String password,
                           long seed,
                           int casesPerOperation, Map<String, List<String>> knownIds, Set<String> noHugeNumbers,
                           Set<String> skipOperations) {
    }

    public record Report(String service, int operations, int requests, Map<String, Integer> byStatus,
                         List<String> unexpectedSuccesses, List<String> failures, long millis) {

        public String summary() {
            return "[rest-fuzz] " + service + ": " + requests + " requests over " + operations + " operations in "
                    + millis + " ms; statuses " + byStatus + "; " + unexpectedSuccesses.size()
                    + " kinds of unexpected 2xx; " + failures.size()
                    + " kinds of contract failure";
        }
    }

    private static final int MAX_REPORTED = 60;

    /** Spread over the operations: a service with few operations gets more cases for each. */
    private static final int TARGET_REQUESTS = 3_000;

    private final Settings settings;
    private final RawHttp http;
    private final Set<String> reportedKinds = new java.util.HashSet<>();

    public RestFuzzer(Settings settings) {
        this.settings = settings;
        this.http = new RawHttp(settings.host(), settings.port());
    }

    public Report run() throws IOException, SQLException, InterruptedException {
        long started = System.nanoTime();
        JsonNode document = settings.management().openApiDocument();
        String service = document.path("info").path("title").asText("service");
        OpenApiOperations api = new OpenApiOperations(document);
        List<Operation> operations = api.operations().stream()
                .filter(o -> !settings.skipOperations().contains(o.id()))
                .sorted(java.util.Comparator.comparing(Operation::id)).toList();
        Map<String, List<String>> discovered = discoverIds(operations);
        int perOperation = Math.max(settings.casesPerOperation(), TARGET_REQUESTS / Math.max(1, operations.size()));

        List<String> failures = new ArrayList<>();
        List<String> successes = new ArrayList<>();
        Map<String, Integer> byStatus = new TreeMap<>();
        int requests = 0;
        try (TableDigest tables = new TableDigest(settings.jdbcUrl(), settings.user(), settings.password(), Set.of())) {
            Map<String, String> baseline = tables.settled();
            for (Operation op : operations) {
                Random random = new Random(settings.seed() ^ op.id().hashCode());
                BadInputs inputs = new BadInputs(op, api, random, p -> known(p, op, discovered),
                        settings.noHugeNumbers());
                boolean readOnly = op.method().equals("GET");
                for (BadInputs.Case c : inputs.cases(perOperation)) {
                    requests++;
                    RawHttp.Response response = send(c, failures, op);
                    if (response == null) {
                        continue;
                    }
                    byStatus.merge(response.status() / 100 + "xx", 1, Integer::sum);
                    String problem = contractViolation(response);
                    if (problem != null) {
                        report(failures, op.id() + " [" + c.what() + "] " + problem + ": " + c.request().describe()
                                + " -> " + abbreviate(response.body()));
                    }
                    if (response.status() < 300) {
                        report(successes, response.status() + " " + op.id() + " [" + c.what() + "]");
                        // What a success sets going in the background (its events, their consumers) must land
                        // before the next refusal is measured against it.
                        baseline = readOnly ? tables.snapshot() : tables.after(baseline);
                    } else if (!readOnly) {
                        Map<String, String> now = tables.snapshot();
                        if (!now.equals(baseline)) {
                            report(failures, op.id() + " [" + c.what() + "] answered " + response.status()
                                    + " but changed " + TableDigest.changed(baseline, now) + ": "
                                    + c.request().describe());
                            baseline = now;
                        }
                    }
                }
                if (readOnly) {
                    Map<String, String> now = tables.snapshot();
                    if (!now.equals(baseline)) {
                        report(failures, op.id() + ": reads changed " + TableDigest.changed(baseline, now));
                        baseline = now;
                    }
                }
            }
            requests += edgeCases(failures, byStatus, operations);
        }
        Report report = new Report(service, operations.size(), requests, byStatus, successes, failures,
                (System.nanoTime() - started) / 1_000_000);
        System.out.println(report.summary());
        successes.forEach(s -> System.out.println("[rest-fuzz]   not refused: " + s));
        failures.forEach(f -> System.out.println("[rest-fuzz]   FAILURE: " + f));
        return report;
    }

    /** What no single operation covers: unknown routes, an over-long URI, a body over the size limit. */
    private int edgeCases(List<String> failures, Map<String, Integer> byStatus, List<Operation> operations) {
        List<RawHttp.Request> edge = new ArrayList<>(List.of(
                new RawHttp.Request("GET", "/no-such-resource", Map.of(), null),
                new RawHttp.Request("GET", "/no-such-resource/1;x", Map.of(), null),
                new RawHttp.Request("DELETE", "/", Map.of(), null),
                new RawHttp.Request("GET", "/" + "u".repeat(9_000), Map.of(), null),
                new RawHttp.Request("GET", "/x?q=" + "q".repeat(20_000), Map.of(), null),
                new RawHttp.Request("GET", "/", Map.of("X-Fuzz", "h".repeat(30_000)), null)));
        operations.stream().filter(o -> o.bodySchema() != null && !o.path().contains("{")).findFirst().ifPresent(o -> {
            edge.add(new RawHttp.Request(o.method(), o.path(), Map.of("Content-Type", "application/json",
                    "Content-Length", Long.toString(11L * 1024 * 1024)), "{".getBytes(StandardCharsets.UTF_8)));
            byte[] big = new byte[11 * 1024 * 1024];
            java.util.Arrays.fill(big, (byte) ' ');
            big[0] = '{';
            edge.add(new RawHttp.Request(o.method(), o.path(), Map.of("Content-Type", "application/json"), big));
        });
        for (RawHttp.Request r : edge) {
            RawHttp.Response response;
            try {
                response = http.send(r);
            } catch (IOException e) {
                report(failures, "edge: no answer (" + e.getMessage() + "): " + r.describe());
                continue;
            }
            byStatus.merge(response.status() / 100 + "xx", 1, Integer::sum);
            String problem = response.status() < 400 ? "expected a refusal, got " + response.status()
                    : contractViolation(response);
            if (problem != null) {
                report(failures, "edge " + problem + ": " + r.describe() + " -> " + abbreviate(response.body()));
            }
        }
        return edge.size();
    }

    private RawHttp.Response send(BadInputs.Case c, List<String> failures, Operation op) {
        try {
            return http.send(c.request());
        } catch (IOException e) {
            report(failures, op.id() + " [" + c.what() + "] no answer (" + e.getMessage() + "): " + c.request().describe());
            return null;
        }
    }

    /** @return what is wrong with the answer, or null when it keeps the error contract */
    static String contractViolation(RawHttp.Response response) {
        if (response.status() >= 500) {
            return "server error " + response.status();
        }
        if (response.status() < 400) {
            return null;
        }
        String type = response.header("content-type");
        if (type == null || !type.startsWith("application/problem+json")) {
            return response.status() + " with content type " + type;
        }
        try {
            JsonNode body = BadInputs.mapper().readTree(response.body());
            if (!body.path("code").isInt()) {
                return response.status() + " problem without an integer code";
            }
            if (body.path("status").asInt() != response.status()) {
                return response.status() + " problem whose status says " + body.path("status");
            }
        } catch (IOException e) {
            return response.status() + " problem body is not JSON";
        }
        return null;
    }

    /**
     * Ids of existing resources, read from the service's own list endpoints: for a path {@code /a/{p}/...}, the values
     * of field {@code p} (or {@code id}) in what {@code GET /a} answers.
     */
    private Map<String, List<String>> discoverIds(List<Operation> operations) {
        Map<String, List<String>> ids = new HashMap<>();
        for (Operation op : operations) {
            if (!op.method().equals("GET") || op.path().contains("{")) {
                continue;
            }
            boolean hasRequired = op.in("query").stream().anyMatch(Param::required);
            if (hasRequired) {
                continue;
            }
            try {
                RawHttp.Response r = http.send(new RawHttp.Request("GET", op.path()
                        + (op.in("query").stream().anyMatch(p -> p.name().equals("limit")) ? "?limit=20" : ""),
                        Map.of("Accept", "application/json"), null));
                if (r.status() != 200) {
                    continue;
                }
                JsonNode body = BadInputs.mapper().readTree(r.body());
                JsonNode items = body.isArray() ? body : body.path("items");
                List<JsonNode> rows = new ArrayList<>();
                items.forEach(rows::add);
                ids.put(op.path(), rows.stream().map(JsonNode.class::cast).map(JsonNode::toString).toList());
            } catch (IOException | RuntimeException e) {
                // an endpoint that does not list JSON rows offers no ids
            }
        }
        return ids;
    }

    /**
     * Values for a path or query parameter. The caller's own ids come first ({@code "/processes/{id}"} before
     * {@code "id"}); without them, reads use ids discovered from the list endpoints, while writes get an id that exists
     * nowhere, so that a request the service accepts never alters data other tests of the application rely on.
     */
    private List<String> known(Param p, Operation op, Map<String, List<String>> discovered) {
        int at = op.path().indexOf("{" + p.name() + "}");
        String specific = at < 0 ? null : op.path().substring(0, at + p.name().length() + 2);
        List<String> given = specific != null && settings.knownIds().containsKey(specific)
                ? settings.knownIds().get(specific) : settings.knownIds().getOrDefault(p.name(), List.of());
        if (!given.isEmpty() || at < 0) {
            return given;
        }
        if (!op.method().equals("GET")) {
            return List.of("987654321");
        }
        List<String> values = new ArrayList<>();
        if (at > 1) {
            String collection = op.path().substring(0, at - 1);
            for (String row : discovered.getOrDefault(collection, List.of())) {
                try {
                    JsonNode node = BadInputs.mapper().readTree(row);
                    JsonNode value = node.has(p.name()) ? node.get(p.name()) : node.get("id");
                    if (value != null && value.isValueNode() && !value.isNull()) {
                        values.add(java.net.URLEncoder.encode(value.asText(), StandardCharsets.UTF_8));
                    }
                } catch (IOException ignored) {
                    // rows were JSON when discovered
                }
            }
        }
        return values.stream().distinct().limit(10).toList();
    }

    /** Keeps the first example of each kind of finding (operation and what was broken), so that one bug does not
     *  crowd out the others in the report. */
    private void report(List<String> into, String line) {
        String kind = line.replaceFirst("^[0-9]* ?[A-Z]+ \\S+ ", "").replaceAll(" -> .*|: [A-Z]+ /.*", "");
        if (!reportedKinds.add(System.identityHashCode(into) + kind)) {
            return;
        }
        if (into.size() < MAX_REPORTED) {
            into.add(line);
        } else if (into.size() == MAX_REPORTED) {
            into.add("… more not listed");
        }
    }

    private static String abbreviate(String text) {
        String oneLine = text.replace('\n', ' ');
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine;
    }

    /**
     * Settings for the application a @QuarkusTest started: its HTTP port, and its database from the configuration
     * the test stack gave it. 60 cases per operation at least, with a fixed seed.
     */
    public static Settings forQuarkusTest(int port, Map<String, List<String>> knownIds, Set<String> noHugeNumbers) {
        Infrastructure.Database db = BatchyardTestStack.database();
        return new Settings("localhost", port, Management.ofApplicationUnderTest(), db.jdbcUrl(), db.user(),
                db.password(), 20_261_123L, 60, knownIds, noHugeNumbers, Set.of());
    }
}
