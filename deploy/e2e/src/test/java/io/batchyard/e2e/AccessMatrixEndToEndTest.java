package io.batchyard.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.api.access.AccessPolicy;
import io.batchyard.api.access.AccessPolicy.Rule;
import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.e2e.AccessMatrix.Entry;
import io.batchyard.e2e.AccessMatrix.Outcome;
import io.batchyard.e2e.AccessMatrix.Plan;
import io.batchyard.e2e.AccessMatrix.Who;
import io.batchyard.e2e.AccessProbes.Call;
import io.batchyard.e2e.AccessProbes.Probe;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.fuzz.OpenApiOperations;
import io.batchyard.teststack.identity.Identity;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every operation of every live OpenAPI document (registry, execution, queue and lineage services and the dashboard,
 * packaged and running), called as every kind of caller on real objects of one application, judged against the one
 * access policy ({@link AccessPolicy}): no token → 401 (12); a role below the rule → 403 (13); an object of an
 * application the caller may not read answers exactly as an object that does not exist would; read without the write
 * or execute the operation needs → 403 (14); lists keep only what the caller may read; the owner, a holder of the
 * permission and an administrator are let through. An operation without a row in the policy fails the matrix.
 *
 * <p>A first pass gives X's owner group read only; a second one, after the owner gave the group 7 and the services
 * learnt it from registry-service's events, calls everything again as the group's members, who may then write and
 * execute without being the owner.
 *
 * <p>Every disagreement is collected, written to {@code target/access-matrix/mismatches.txt} grouped by service, and
 * the test fails with the whole list.
 */
class AccessMatrixEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .version(HttpClient.Version.HTTP_1_1).build();
    private static final Pattern PARAM = Pattern.compile("\\{[^}]+}");
    private static final Path REPORT = Path.of("target", "access-matrix", "mismatches.txt");
    /**
     * Allowed calls that the service still refused for their input or the object's state (a 400, 409, 422): not a
     * mismatch, but the report lists them, since such a call proves less than one that went through.
     */
    private static final List<String> REFUSED_FOR_STATE = new ArrayList<>();

    private static Stack stack;
    private static ServiceProcess dashboard;
    private static AccessFixtures fixtures;
    private static Map<String, String> urls;
    /** Each service's live operations ("METHOD /path"), from its own OpenAPI document. */
    private static Map<String, List<String>> live;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
        dashboard = stack.startDashboard();
        Map<String, ServiceProcess> services = new LinkedHashMap<>();
        services.put("registry-service", stack.registry);
        services.put("execution-service", stack.execution);
        services.put("queue-service", stack.queue);
        services.put("lineage-service", stack.lineage);
        services.put("dashboard", dashboard);
        urls = new LinkedHashMap<>();
        services.forEach((service, process) -> urls.put(service, process.url()));
        assertThat(urls.keySet()).as("the services the access policy covers")
                .containsExactlyInAnyOrderElementsOf(AccessPolicy.services());
        live = new LinkedHashMap<>();
        services.forEach((service, process) -> live.put(service, liveOperations(process.management())));
        fixtures = new AccessFixtures(stack, dashboard);
    }

    @AfterAll
    static void stop() {
        if (dashboard != null) {
            dashboard.close();
        }
    }

    @Test
    void everyLiveOperationAnswersEveryCallerAsThePolicySays() throws IOException {
        Plan plan = AccessMatrix.plan(live);
        List<Probe> probes = new ArrayList<>(AccessProbes.all(fixtures));
        probes.sort(Comparator.comparingInt(Probe::phase));
        Map<String, Probe> byKey = new LinkedHashMap<>();
        probes.forEach(probe -> byKey.put(probe.key(), probe));
        Set<String> planned = new TreeSet<>();
        plan.entries().forEach(entry -> planned.add(entry.service() + ": " + entry.operation()));

        List<String> failures = new ArrayList<>();
        plan.withoutRule().forEach(op -> failures.add(op + ": a live operation without a row in the access policy"));
        plan.withoutOperation().forEach(op -> failures.add(op + ": a policy row for an operation the service does not"
                + " have"));
        byKey.keySet().stream().filter(key -> !planned.contains(key))
                .forEach(key -> failures.add(key + ": the matrix calls an operation the live documents do not have"));

        Map<String, Entry> entries = new LinkedHashMap<>();
        plan.entries().forEach(entry -> entries.put(entry.service() + ": " + entry.operation(), entry));
        List<Mismatch> mismatches = new ArrayList<>();
        for (Entry entry : plan.entries()) {
            if (!byKey.containsKey(entry.service() + ": " + entry.operation())) {
                mismatches.add(new Mismatch(entry.service(), entry.operation(), "-", "a call with real objects",
                        "the matrix has no probe for this operation (AccessProbes)"));
            }
        }
        int calls = walk(probes, entries, AccessFixtures.CALLERS, AccessFixtures.ACCESS, mismatches);
        // Second pass: X's group gets 7. The services learn the change from registry-service's events; then the
        // group's operator may execute and its developer write, without being the owner.
        fixtures.giveTheGroup(7);
        calls += walk(probes, entries, AccessFixtures.GROUP_CALLERS, fixtures.current(), mismatches);
        report(failures, mismatches, calls);
        List<String> all = new ArrayList<>(failures);
        mismatches.forEach(m -> all.add(m.toString()));
        assertThat(all).as("the access matrix (also in " + REPORT.toAbsolutePath() + ")").isEmpty();
    }

    /** Calls every probe that has a rule as each of {@code callers}; the number of calls. */
    private static int walk(List<Probe> probes, Map<String, Entry> entries, List<Who> callers,
                            ApplicationAccess access, List<Mismatch> mismatches) {
        int calls = 0;
        for (Probe probe : probes) {
            Entry entry = entries.get(probe.key());
            if (entry == null) {
                continue;
            }
            for (Who who : callers) {
                calls++;
                judge(probe, entry.rule(), who, access).ifPresent(mismatches::add);
            }
        }
        return calls;
    }

    /**
     * The matrix is a function of the live operations and the rules: with one row taken out of the rules it uses,
     * the operation of that row is reported as having none, for every service.
     */
    @Test
    void anOperationWhoseRowIsRemovedFromThePolicyIsReported() {
        assertThat(AccessMatrix.plan(live).withoutRule()).as("with the whole policy").isEmpty();
        for (String service : live.keySet()) {
            Rule removed = AccessPolicy.of(service).get(0);
            Plan plan = AccessMatrix.plan(live, s -> AccessPolicy.of(s).stream().filter(r -> r != removed).toList());
            assertThat(plan.withoutRule()).as("without the row of " + removed.operation())
                    .containsExactly(service + ": " + removed.operation());
            assertThat(plan.entries()).noneMatch(e -> e.service().equals(service)
                    && e.operation().equals(removed.operation()));
        }
    }

    /** One disagreement between a live answer and the policy. */
    record Mismatch(String service, String operation, String caller, String expected, String actual) {
        @Override
        public String toString() {
            return service + ": " + operation + " | " + caller + " | expected " + expected + " | got " + actual;
        }
    }

    /** An answer: status, content type, body (the first event of a stream) and the problem's code. */
    record Answer(int status, String contentType, String body) {

        boolean problem() {
            return contentType.startsWith("application/problem+json");
        }

        Integer code() {
            try {
                JsonNode code = JSON.readTree(body).path("code");
                return code.isInt() ? code.asInt() : null;
            } catch (IOException e) {
                return null;
            }
        }

        @Override
        public String toString() {
            String shown = body.length() > 240 ? body.substring(0, 240) + "…" : body;
            return status + " " + contentType + (problem() ? " code " + code() : "") + " " + shown.replace('\n', ' ');
        }
    }

    private static Optional<Mismatch> judge(Probe probe, Rule rule, Who who, ApplicationAccess access) {
        Outcome outcome = AccessMatrix.expect(rule, who, access);
        Object object = probe.object() == null ? null : probe.object().get();
        Answer answer = send(probe, probe.call().apply(object), who);
        String expected;
        boolean ok;
        switch (outcome) {
            case UNAUTHENTICATED -> {
                expected = "401 problem+json code 12";
                ok = refused(answer, 401, 12);
            }
            case ROLE_REFUSED -> {
                expected = "403 problem+json code 13";
                ok = refused(answer, 403, 13);
            }
            case PERMISSION_REFUSED -> {
                expected = "403 problem+json code 14";
                ok = refused(answer, 403, 14);
            }
            case HIDDEN -> {
                if (object == null) {
                    return mismatch(probe, who, "hidden", "the probe names no guarded object to compare with");
                }
                Object missing = AccessProbes.twinOf(object);
                Answer twin = send(probe, probe.call().apply(missing), who);
                if (twin.status() >= 400 && twin.status() < 500 && twin.status() != 401 && twin.status() != 403) {
                    // the service's own answer for an unknown object: mostly 404, InitJob's 422 (code 102), a run
                    // policy's 409 (code 408)
                    expected = "hidden: " + twin.status() + " problem+json code " + twin.code()
                            + ", as for an object that does not exist";
                    ok = answer.status() == twin.status() && answer.problem()
                            && Objects.equals(answer.code(), twin.code());
                } else if (twin.status() >= 200 && twin.status() < 300) {
                    // an unknown object is an answer of its own here (why: UNKNOWN_PROCESS, an empty list)
                    expected = "hidden: the answer for an object that does not exist, " + twin;
                    ok = answer.status() == twin.status()
                            && sameAnswer(answer.body(), object, twin.body(), missing);
                } else {
                    expected = "hidden: 404 problem+json (an object that does not exist answers " + twin + ")";
                    ok = answer.status() == 404 && answer.problem();
                }
            }
            case ALLOWED -> {
                boolean judged = !AccessProbes.ALLOWED_NOT_JUDGED.containsKey(probe.key());
                expected = judged ? "neither 401, 403 nor 404, and no 5xx" : "neither 401 nor 403, and no 5xx";
                ok = answer.status() != 401 && answer.status() != 403 && answer.status() < 500
                        && (!judged || answer.status() != 404);
                if (ok && answer.status() >= 400) {
                    REFUSED_FOR_STATE.add(probe.key() + " | " + who.label() + " | " + answer);
                }
            }
            default -> {
                boolean with = outcome == Outcome.LISTED_WITH_OBJECT;
                AccessProbes.Seen seen = probe.seen();
                if (!with && object != null && answer.status() >= 400 && answer.status() < 500
                        && answer.status() != 401 && answer.status() != 403) {
                    // a graph asked for by name, all of which the caller may not see: the name answers as one that
                    // does not exist, or it is a mismatch
                    Answer twin = send(probe, probe.call().apply(AccessProbes.twinOf(object)), who);
                    expected = "200 without the fixture's object, or the answer for a name that does not exist ("
                            + twin + ")";
                    ok = answer.status() == twin.status() && answer.problem()
                            && Objects.equals(answer.code(), twin.code());
                } else if (seen == null) {
                    expected = "200";
                    ok = answer.status() == 200;
                    if (ok && !AccessProbes.VISIBILITY_NOT_JUDGED.containsKey(probe.key())) {
                        return mismatch(probe, who, "a place to look for the fixture's object",
                                "the probe names none");
                    }
                } else {
                    Object id = seen.id().get();
                    expected = "200 " + (with ? "listing " : "not listing ") + id + " at " + seen.jsonPath();
                    ok = answer.status() == 200 && listed(answer, seen.jsonPath(), id) == with;
                }
            }
        }
        if (ok && !readsX(who, access) && answer.body().contains(fixtures.appName)) {
            return mismatch(probe, who, "no word of application " + fixtures.appName + " to a caller who may not "
                    + "read it", answer.toString());
        }
        return ok ? Optional.empty() : mismatch(probe, who, expected, answer.toString());
    }

    private static Optional<Mismatch> mismatch(Probe probe, Who who, String expected, String actual) {
        return Optional.of(new Mismatch(probe.service(), probe.operation(), who.label(), expected, actual));
    }

    private static boolean readsX(Who who, ApplicationAccess access) {
        return !who.anonymous() && ApplicationGuard.canRead(who.caller(), Optional.of(access));
    }

    /** Whether {@code body} about {@code object} says exactly what {@code twinBody} says about {@code missing}. */
    static boolean sameAnswer(String body, Object object, String twinBody, Object missing) {
        String id = Pattern.quote(String.valueOf(object));
        String told = body.replaceAll("(?<![0-9A-Za-z])" + id + "(?![0-9A-Za-z])",
                Matcher.quoteReplacement(String.valueOf(missing)));
        try {
            return JSON.readTree(told).equals(JSON.readTree(twinBody));
        } catch (IOException e) {
            return told.equals(twinBody);
        }
    }

    private static boolean refused(Answer answer, int status, int code) {
        return answer.status() == status && answer.problem() && Integer.valueOf(code).equals(answer.code());
    }

    /** Whether the values at {@code path} (dotted, through arrays) of the JSON answer include {@code id}. */
    static boolean listed(Answer answer, String path, Object id) {
        JsonNode root;
        try {
            root = JSON.readTree(answer.body());
        } catch (IOException e) {
            return false;
        }
        List<JsonNode> nodes = new ArrayList<>(List.of(root));
        for (String field : path.split("\\.")) {
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode node : flatten(nodes)) {
                if (node.has(field)) {
                    next.add(node.get(field));
                }
            }
            nodes = next;
        }
        return flatten(nodes).stream().anyMatch(node -> node.asText().equals(String.valueOf(id)));
    }

    private static List<JsonNode> flatten(List<JsonNode> nodes) {
        List<JsonNode> flat = new ArrayList<>();
        for (JsonNode node : nodes) {
            if (node.isArray()) {
                node.forEach(flat::add);
            } else {
                flat.add(node);
            }
        }
        return flat;
    }

    private static Answer send(Probe probe, Call call, Who who) {
        Matcher params = PARAM.matcher(probe.template());
        StringBuilder path = new StringBuilder();
        int index = 0;
        while (params.find()) {
            params.appendReplacement(path, Matcher.quoteReplacement(encode(String.valueOf(call.path().get(index++)))));
        }
        params.appendTail(path);
        List<String> query = new ArrayList<>();
        call.query().forEach((name, value) -> query.add(encode(name) + "=" + encode(String.valueOf(value))));
        URI uri = URI.create(urls.get(probe.service()) + path + (query.isEmpty() ? "" : "?" + String.join("&", query)));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
        if (!who.anonymous()) {
            request.header("Authorization", "Bearer " + Identity.get().token(who.user(), who.roles(), who.groups()));
        }
        String method = probe.method();
        if (method.equals("GET") || method.equals("DELETE")) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            String body;
            try {
                body = call.body() == null ? "" : JSON.writeValueAsString(call.body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            HttpResponse<InputStream> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            String type = response.headers().firstValue("Content-Type").orElse("");
            String body = type.startsWith("text/event-stream") ? firstEvent(response.body())
                    : new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(response.statusCode(), type, body);
        } catch (IOException e) {
            throw new UncheckedIOException(probe.key() + " as " + who.label(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The data of a Server-Sent Events stream's first event (the stream itself never ends). */
    private static String firstEvent(InputStream stream) throws IOException {
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
            StringBuilder data = new StringBuilder();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.startsWith("data:")) {
                        data.append(line.substring(5).trim());
                    } else if (line.isEmpty() && data.length() > 0) {
                        break;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return data.toString();
        });
        try {
            return first.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            stream.close();
            return "(no event within 30 s)";
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The operations the service's own OpenAPI document lists, read on its management interface. */
    private static List<String> liveOperations(Management management) {
        return OpenApiOperations.of(management).operations().stream().map(OpenApiOperations.Operation::id).toList();
    }

    /** Prints and writes every failure, the mismatches grouped by service, for whoever makes the services agree. */
    private static void report(List<String> failures, List<Mismatch> mismatches, int calls) throws IOException {
        StringBuilder text = new StringBuilder("access matrix: " + calls + " calls, " + mismatches.size()
                + " mismatch(es), " + failures.size() + " other failure(s); application " + fixtures.appName + "\n");
        failures.forEach(f -> text.append(f).append('\n'));
        Map<String, List<Mismatch>> byService = new TreeMap<>();
        mismatches.forEach(m -> byService.computeIfAbsent(m.service(), s -> new ArrayList<>()).add(m));
        byService.forEach((service, list) -> {
            text.append("\n== ").append(service).append(" (").append(list.size()).append(")\n");
            list.forEach(m -> text.append("  ").append(m.operation()).append(" | ").append(m.caller())
                    .append(" | expected ").append(m.expected()).append(" | got ").append(m.actual()).append('\n'));
        });
        text.append("\n(allowed and let through, but refused for input or state: ").append(REFUSED_FOR_STATE.size())
                .append(")\n");
        REFUSED_FOR_STATE.forEach(line -> text.append("  ").append(line, 0, Math.min(line.length(), 300))
                .append('\n'));
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, text);
        System.out.println("[access-matrix] " + text);
    }
}
