package io.batchyard.teststack;

import io.batchyard.teststack.identity.KeycloakIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * The schema registry of a test run (Apicurio Registry, which also speaks the Confluent-compatible API), decided once
 * per JVM like PostgreSQL and Kafka: {@code BATCHYARD_TEST_SCHEMA_REGISTRY_URL} (its base URL), else a Testcontainers
 * container when Docker answers, else its server distribution from Maven Central (unpacked by this module's build)
 * run on the first JDK 21+ found. Every subject gets the compatibility rule the project keeps: FULL_TRANSITIVE.
 */
public final class SchemaRegistryServer {

    /** The compatibility level every subject is held to: any version reads and is read by every other one. */
    public static final String COMPATIBILITY = "FULL_TRANSITIVE";

    private SchemaRegistryServer() {
    }

    /** @return base URL, description */
    static String[] start(boolean docker) {
        String url = System.getenv("BATCHYARD_TEST_SCHEMA_REGISTRY_URL");
        if (url != null && !url.isBlank()) {
            return new String[] {trim(url), "from BATCHYARD_TEST_SCHEMA_REGISTRY_URL " + url};
        }
        Properties build = buildProperties();
        String version = build.getProperty("apicurio.version");
        if (docker) {
            GenericContainer<?> container = new GenericContainer<>("apicurio/apicurio-registry:" + version)
                    .withExposedPorts(8080)
                    .waitingFor(Wait.forHttp("/apis/registry/v3/system/info").forPort(8080));
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            String base = "http://" + container.getHost() + ":" + container.getMappedPort(8080);
            holdToCompatibility(base);
            return new String[] {base, "Testcontainers " + base};
        }
        Path distribution = Path.of(build.getProperty("apicurio.distribution"));
        if (!Files.isRegularFile(distribution.resolve("quarkus-run.jar"))) {
            throw new IllegalStateException("no schema registry: set BATCHYARD_TEST_SCHEMA_REGISTRY_URL, start Docker, or "
                    + "build deploy/test-stack (it unpacks Apicurio Registry " + version + " into " + distribution + ")");
        }
        List<String> seen = new ArrayList<>();
        Path javaHome = KeycloakIdentity.javaHome(seen).orElseThrow(() -> new IllegalStateException(
                "Apicurio Registry " + version + " needs Java 21+; none among " + seen
                        + " (set BATCHYARD_KEYCLOAK_JAVA_HOME or JAVA_HOME to one)"));
        String base = run(distribution, javaHome);
        holdToCompatibility(base);
        return new String[] {base, "Apicurio Registry " + version + " at " + base + " (Maven Central distribution)"};
    }

    private static String run(Path distribution, Path javaHome) {
        try {
            Path log = Files.createTempFile("batchyard-schema-registry", ".log");
            int port = ChildProcesses.freePort();
            // In-memory storage: a test run starts with no subjects. The management interface (health, metrics) gets a
            // free port of its own too: its default, 9000, would collide with the local stack or a parallel run.
            ProcessBuilder pb = new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-Xms64m", "-Xmx384m",
                    "-XX:ActiveProcessorCount=2", "-XX:TieredStopAtLevel=1",
                    "-jar", distribution.resolve("quarkus-run.jar").toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
            pb.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
            pb.environment().put("QUARKUS_MANAGEMENT_HOST", "127.0.0.1");
            pb.environment().put("QUARKUS_MANAGEMENT_PORT", String.valueOf(ChildProcesses.freePort()));
            Process process = pb.start();
            ChildProcesses.stopOnExit(process, () -> { });
            String base = "http://127.0.0.1:" + port;
            ChildProcesses.awaitOk(process, "Apicurio Registry", URI.create(base + "/apis/registry/v3/system/info"),
                    Duration.ofSeconds(120), log);
            return base;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Apicurio Registry", e);
        }
    }

    /** Sets the registry-wide compatibility level through the Confluent-compatible API, as any registry takes it. */
    public static void holdToCompatibility(String baseUrl) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(trim(baseUrl) + "/apis/ccompat/v7/config"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"" + COMPATIBILITY + "\"}"))
                .build();
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the schema registry refused the compatibility level: "
                        + response.statusCode() + " " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the schema registry at " + baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What this module's build wrote into {@code batchyard-test-stack.properties} (versions, unpacked servers). */
    static Properties buildProperties() {
        try (InputStream in = SchemaRegistryServer.class.getClassLoader()
                .getResourceAsStream("batchyard-test-stack.properties")) {
            Properties props = new Properties();
            if (in != null) {
                props.load(in);
            }
            return props;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String trim(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
