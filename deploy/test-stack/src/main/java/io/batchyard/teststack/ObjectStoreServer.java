package io.batchyard.teststack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * The S3-compatible object store of a test run, started on first use and shared by every test of the JVM:
 * {@code BATCHYARD_TEST_S3_URL} (with {@code BATCHYARD_TEST_S3_ACCESS_KEY}, {@code _SECRET_KEY}, {@code _REGION} and
 * an existing {@code _BUCKET}), else S3Proxy in a Testcontainers container when Docker answers, else S3Proxy from
 * Maven Central ({@code org.gaul:s3proxy}, copied by this module's build) as a child JVM over a fresh local directory
 * (jclouds' filesystem blobstore). A child JVM rather than in-process: S3Proxy brings Jetty 11 and jclouds with their
 * own Guava, Gson and Jakarta versions, which would share the test classpath with Quarkus'.
 */
public final class ObjectStoreServer {

    /** Where a test's S3 client connects: a real server that checks AWS signatures, with one bucket ready. */
    public record Endpoint(String url, String region, String accessKey, String secretKey, String bucket,
                           String description) {
    }

    private static final String IDENTITY = "batchyard-test";
    private static final String CREDENTIAL = "batchyard-test-secret";
    private static final String BUCKET = "batchyard-test";
    private static final String REGION = "us-east-1";

    private ObjectStoreServer() {
    }

    static Endpoint start(boolean docker) {
        String url = System.getenv("BATCHYARD_TEST_S3_URL");
        if (url != null && !url.isBlank()) {
            return new Endpoint(url, env("BATCHYARD_TEST_S3_REGION", REGION), env("BATCHYARD_TEST_S3_ACCESS_KEY", IDENTITY),
                    env("BATCHYARD_TEST_S3_SECRET_KEY", CREDENTIAL), env("BATCHYARD_TEST_S3_BUCKET", BUCKET),
                    "from BATCHYARD_TEST_S3_URL " + url);
        }
        Properties build = SchemaRegistryServer.buildProperties();
        String version = build.getProperty("s3proxy.version");
        if (docker) {
            GenericContainer<?> container = new GenericContainer<>("andrewgaul/s3proxy:s3proxy-" + version)
                    .withExposedPorts(80)
                    .withEnv(Map.of("S3PROXY_AUTHORIZATION", "aws-v2-or-v4", "S3PROXY_IDENTITY", IDENTITY,
                            "S3PROXY_CREDENTIAL", CREDENTIAL, "JCLOUDS_PROVIDER", "filesystem",
                            "JCLOUDS_FILESYSTEM_BASEDIR", "/data"))
                    .waitingFor(Wait.forListeningPort());
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            try {
                // with the filesystem blobstore a bucket is a directory of the base directory
                container.execInContainer("mkdir", "-p", "/data/" + BUCKET);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            String base = "http://" + container.getHost() + ":" + container.getMappedPort(80);
            return new Endpoint(base, REGION, IDENTITY, CREDENTIAL, BUCKET, "Testcontainers S3Proxy " + base);
        }
        Path jar = Path.of(build.getProperty("s3proxy.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no S3 store: set BATCHYARD_TEST_S3_URL, start Docker, or build "
                    + "deploy/test-stack (it copies S3Proxy " + version + " to " + jar + ")");
        }
        String base = run(jar);
        return new Endpoint(base, REGION, IDENTITY, CREDENTIAL, BUCKET,
                "S3Proxy " + version + " at " + base + " (Maven Central, filesystem blobstore)");
    }

    private static String run(Path jar) {
        try {
            Path dir = Files.createTempDirectory("batchyard-s3proxy");
            Files.createDirectories(dir.resolve("data").resolve(BUCKET));
            int port = ChildProcesses.freePort();
            String base = "http://127.0.0.1:" + port;
            Path conf = dir.resolve("s3proxy.conf");
            Files.write(conf, List.of(
                    "s3proxy.endpoint=" + base,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + IDENTITY,
                    "s3proxy.credential=" + CREDENTIAL,
                    "jclouds.provider=filesystem",
                    "jclouds.filesystem.basedir=" + dir.resolve("data")));
            Path log = dir.resolve("s3proxy.log");
            Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
            Process process = new ProcessBuilder(javaBin.toString(), "-Xms32m", "-Xmx256m", "-XX:ActiveProcessorCount=2",
                    "-XX:TieredStopAtLevel=1", "-jar", jar.toString(), "--properties", conf.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            ChildProcesses.stopOnExit(process, () -> deleteQuietly(dir));
            awaitAnswer(process, URI.create(base + "/"), Duration.ofSeconds(60), log);
            return base;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start S3Proxy", e);
        }
    }

    /** S3Proxy answers an unsigned request with 403: any HTTP answer means it is listening. */
    private static void awaitAnswer(Process process, URI uri, Duration timeout, Path log) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Proxy exited with " + process.exitValue() + ":\n"
                        + ChildProcesses.tail(log, 60));
            }
            try {
                http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException e) {
                ChildProcesses.sleep(100); // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("S3Proxy not ready within " + timeout + ":\n" + ChildProcesses.tail(log, 60));
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // a temporary directory left behind is removed with the machine's temporary files
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
