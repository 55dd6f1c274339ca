package io.batchyard.teststack.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.batchyard.teststack.ChildProcesses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real Keycloak (its Maven Central distribution, unpacked by the build) in dev mode with the local stack's realm
 * {@code batchyard} imported: the services verify its tokens through OpenID Connect discovery, users sign in with a
 * password grant on the public client {@code batchyard-cli}, and execution-service signs in itself with the client
 * credentials of {@code batchyard-execution}. Users are created on demand with exactly the asked-for realm roles and
 * groups through the admin REST API. Keycloak 26 needs a JDK 21+; {@link #javaHome()} finds one or says why not.
 */
public final class KeycloakIdentity extends Identity implements AutoCloseable {

    public static final String REALM = "batchyard";
    private static final String USER_CLIENT = "batchyard-cli";
    private static final String SERVICE_CLIENT = "batchyard-execution";
    /** The dashboard's client: authorization code flow, so a person signs in in the browser. */
    private static final String DASHBOARD_CLIENT = "batchyard-dashboard";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Batchyard's realm roles; a user's other ones (Keycloak's defaults) are left alone. */
    private static final Set<String> BATCHYARD_ROLES = Set.of("viewer", "operator", "developer", "admin", "service");

    private final Process process;
    private final String url;
    private final String adminPassword;
    private final String serviceSecret;
    private final String dashboardSecret;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Time from launch to the realm's discovery document answering, for the test log. */
    private Duration startTime;

    private KeycloakIdentity(Process process, String url, String adminPassword, String serviceSecret,
                             String dashboardSecret) {
        this.process = process;
        this.url = url;
        this.adminPassword = adminPassword;
        this.serviceSecret = serviceSecret;
        this.dashboardSecret = dashboardSecret;
    }

    /**
     * The first JDK 21+ among {@code BATCHYARD_KEYCLOAK_JAVA_HOME}, {@code JAVA_HOME} and {@code /usr/lib/jvm/*}, or
     * empty; {@code seen} receives what was looked at, for the reason of a skip.
     */
    public static Optional<Path> javaHome(List<String> seen) {
        List<Path> candidates = new ArrayList<>();
        Stream.of(System.getenv("BATCHYARD_KEYCLOAK_JAVA_HOME"), System.getenv("JAVA_HOME"))
                .filter(home -> home != null && !home.isBlank()).map(Path::of).forEach(candidates::add);
        try (Stream<Path> jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            jvms.filter(p -> !Files.isSymbolicLink(p)).sorted().forEach(candidates::add);
        } catch (IOException e) {
            // no /usr/lib/jvm: only the variables count
        }
        for (Path home : candidates) {
            int release = release(home);
            seen.add(home + " (" + (release == 0 ? "no JDK" : "Java " + release) + ")");
            if (release >= 21) {
                return Optional.of(home);
            }
        }
        return Optional.empty();
    }

    /** The feature release a JDK's {@code release} file states, 0 when it is no JDK. */
    private static int release(Path home) {
        Path file = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin/java")) || !Files.isRegularFile(file)) {
            return 0;
        }
        try (var reader = Files.newBufferedReader(file)) {
            Properties props = new Properties();
            props.load(reader);
            String version = props.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
            String feature = version.startsWith("1.") ? version.substring(2) : version;
            return Integer.parseInt(feature.split("[.+-]")[0]);
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Starts Keycloak from {@code distribution} (the unpacked {@code keycloak-<version>} directory) on a free port with
     * the realm file imported, its data and log under {@code workDir}; returns once the realm answers.
     */
    public static KeycloakIdentity start(Path distribution, Path javaHome, Path realmFile, Path workDir, Duration timeout) {
        try {
            Files.createDirectories(workDir);
            // Each start begins with an empty database: the realm is imported again and the bootstrap administrator
            // gets this run's password.
            deleteTree(distribution.resolve("data/h2"));
            Path imports = Files.createDirectories(distribution.resolve("data/import"));
            Files.copy(realmFile, imports.resolve(REALM + "-realm.json"), StandardCopyOption.REPLACE_EXISTING);
            Path log = workDir.resolve("keycloak.log");
            Files.writeString(log, "==== " + Instant.now() + " starting Keycloak\n", StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            int port = ChildProcesses.freePort();
            String url = "http://127.0.0.1:" + port;
            String adminPassword = secret();
            String serviceSecret = secret();
            String dashboardSecret = secret();
            ProcessBuilder pb = new ProcessBuilder(distribution.resolve("bin/kc.sh").toString(), "start-dev",
                    "--http-host=127.0.0.1", "--http-port=" + port, "--hostname=" + url, "--import-realm")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().put("JAVA_HOME", javaHome.toString());
            pb.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m -XX:ActiveProcessorCount=2");
            pb.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
            pb.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", adminPassword);
            pb.environment().put("BATCHYARD_EXECUTION_SECRET", serviceSecret);
            pb.environment().put("BATCHYARD_DASHBOARD_SECRET", dashboardSecret);
            // the dashboard's address is only known once it runs: allowDashboardAt sets it
            pb.environment().put("BATCHYARD_DASHBOARD_URL", "http://127.0.0.1:0");
            Instant launched = Instant.now();
            KeycloakIdentity keycloak = new KeycloakIdentity(pb.start(), url, adminPassword, serviceSecret,
                    dashboardSecret);
            keycloak.awaitRealm(log, timeout);
            keycloak.startTime = Duration.between(launched, Instant.now());
            return keycloak;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static String secret() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private void awaitRealm(Path log, Duration timeout) {
        try {
            ChildProcesses.awaitOk(process, "Keycloak", URI.create(issuer() + "/.well-known/openid-configuration"),
                    timeout, log);
        } catch (IllegalStateException e) {
            close();
            throw e;
        }
    }

    /** The realm's issuer URL: what the services discover and the tokens' {@code iss}. */
    public String issuer() {
        return url + "/realms/" + REALM;
    }

    public Duration startTime() {
        return startTime;
    }

    @Override
    public Map<String, String> serviceConfig() {
        return Map.of("quarkus.oidc.auth-server-url", issuer());
    }

    /** A service signs in itself with the client credentials of batchyard-execution (the realm's service client). */
    @Override
    public Map<String, String> serviceIdentityConfig(String service) {
        return Map.of("quarkus.oidc-client.auth-server-url", issuer(),
                "quarkus.oidc-client.client-id", SERVICE_CLIENT,
                "quarkus.oidc-client.credentials.secret", serviceSecret);
    }

    /**
     * Shortens the lifespan of the service client's access tokens (the realm's 1 h otherwise), so that a test sees a
     * service renew its token.
     */
    public void serviceTokenLifespan(Duration lifespan) {
        String admin = masterAdminToken();
        String clients = url + "/admin/realms/" + REALM + "/clients";
        JsonNode client = call(admin, "GET", clients + "?clientId=" + SERVICE_CLIENT, null).body().get(0);
        ((ObjectNode) client.get("attributes"))
                .put("access.token.lifespan", String.valueOf(lifespan.toSeconds()));
        call(admin, "PUT", clients + "/" + client.get("id").asText(), client);
    }

    /** The configuration that makes the dashboard a hybrid application of the realm's dashboard client. */
    public Map<String, String> dashboardSignInConfig() {
        return Map.of("quarkus.oidc.application-type", "hybrid",
                "quarkus.oidc.client-id", DASHBOARD_CLIENT,
                "quarkus.oidc.credentials.secret", dashboardSecret,
                "batchyard.dashboard.sign-in", "true");
    }

    /** Lets the dashboard running at {@code dashboardUrl} be where the sign-in form sends people back to. */
    public void allowDashboardAt(String dashboardUrl) {
        String admin = masterAdminToken();
        String clients = url + "/admin/realms/" + REALM + "/clients";
        ObjectNode client = (ObjectNode) call(admin, "GET", clients + "?clientId=" + DASHBOARD_CLIENT, null).body().get(0);
        client.putArray("redirectUris").add(dashboardUrl + "/*");
        call(admin, "PUT", clients + "/" + client.get("id").asText(), client);
    }

    /** The bootstrap administrator's token (master realm), for the admin REST API. */
    private String masterAdminToken() {
        return signIn("master", Map.of("grant_type", "password", "client_id", "admin-cli", "username", "admin",
                "password", adminPassword));
    }

    @Override
    public String description() {
        return "Keycloak at " + url + " (realm " + REALM + ")";
    }

    @Override
    protected String issue(String user, Set<String> roles, Set<String> groups) {
        return signIn(REALM, Map.of("grant_type", "password", "client_id", USER_CLIENT, "username", user,
                "password", user(user, roles, groups)));
    }

    /**
     * Creates or updates {@code user} with exactly these realm roles and groups and a new password, which it answers:
     * what a person types into the sign-in form.
     */
    public String user(String user, Set<String> roles, Set<String> groups) {
        String admin = masterAdminToken();
        String base = url + "/admin/realms/" + REALM;
        Map<String, Object> profile = Map.of("username", user, "enabled", true, "email", user + "@batchyard.test",
                "emailVerified", true, "firstName", user, "lastName", "Test", "requiredActions", List.of());
        JsonNode found = call(admin, "GET", base + "/users?exact=true&username=" + encode(user), null).body();
        String id = found.size() > 0 ? found.get(0).get("id").asText()
                : created(call(admin, "POST", base + "/users", profile));
        String password = secret();
        call(admin, "PUT", base + "/users/" + id + "/reset-password",
                Map.of("type", "password", "value", password, "temporary", false));
        // exactly these roles and groups, also for a user asked for before with others
        List<JsonNode> held = new ArrayList<>();
        call(admin, "GET", base + "/users/" + id + "/role-mappings/realm", null).body().forEach(held::add);
        List<JsonNode> dropped = held.stream().filter(r -> BATCHYARD_ROLES.contains(r.get("name").asText())
                && !roles.contains(r.get("name").asText())).toList();
        if (!dropped.isEmpty()) {
            call(admin, "DELETE", base + "/users/" + id + "/role-mappings/realm", dropped);
        }
        List<JsonNode> wanted = new ArrayList<>();
        for (String role : roles) {
            wanted.add(call(admin, "GET", base + "/roles/" + encode(role), null).body());
        }
        if (!wanted.isEmpty()) {
            call(admin, "POST", base + "/users/" + id + "/role-mappings/realm", wanted);
        }
        for (JsonNode g : call(admin, "GET", base + "/users/" + id + "/groups", null).body()) {
            if (!groups.contains(g.get("name").asText())) {
                call(admin, "DELETE", base + "/users/" + id + "/groups/" + g.get("id").asText(), null);
            }
        }
        for (String group : groups) {
            JsonNode matches = call(admin, "GET", base + "/groups?exact=true&search=" + encode(group), null).body();
            String groupId = null;
            for (JsonNode g : matches) {
                if (g.get("name").asText().equals(group)) {
                    groupId = g.get("id").asText();
                }
            }
            if (groupId == null) {
                groupId = created(call(admin, "POST", base + "/groups", Map.of("name", group)));
            }
            call(admin, "PUT", base + "/users/" + id + "/groups/" + groupId, null);
        }
        return password;
    }

    private String signIn(String realm, Map<String, String> form) {
        String body = form.entrySet().stream().map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/realms/" + realm + "/protocol/openid-connect/token"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return expect2xx(request).body().get("access_token").asText();
    }

    private record Answer(JsonNode body, HttpResponse<String> response) {
    }

    private Answer call(String token, String method, String target, Object body) {
        try {
            HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
            return expect2xx(HttpRequest.newBuilder(URI.create(target)).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .method(method, publisher).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Answer expect2xx(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("Keycloak: " + request.method() + " " + request.uri() + " -> "
                        + response.statusCode() + " " + response.body());
            }
            return new Answer(response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body()), response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The id at the end of a 201's {@code Location}. */
    private static String created(Answer answer) {
        String location = answer.response().headers().firstValue("Location")
                .orElseThrow(() -> new IllegalStateException("Keycloak created something without a Location"));
        return location.substring(location.lastIndexOf('/') + 1);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
