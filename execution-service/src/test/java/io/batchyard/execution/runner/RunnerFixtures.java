package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;

import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Stand-alone parents whose steps are small shell scripts written for the test, and their run policies. */
final class RunnerFixtures implements AutoCloseable {

    static final Duration WAIT = ExecutionFixtures.WAIT;

    final Path scriptDir;
    final Path dir;
    /** The publisher and the registration that execution-service's other integration tests use as well. */
    private final ExecutionFixtures fixtures;
    final EventPublisher publisher;

    /** Scripts go to a fresh directory inside the runner's script directory, the only place it runs them from. */
    RunnerFixtures(String bootstrap, String scriptDir) {
        try {
            this.scriptDir = Files.createDirectories(Path.of(scriptDir).toAbsolutePath());
            dir = Files.createTempDirectory(this.scriptDir, "batchyard-runner-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        fixtures = new ExecutionFixtures(bootstrap);
        publisher = fixtures.publisher;
    }

    static long id() {
        return ExecutionFixtures.id();
    }

    /** Writes an executable {@code sh} script; the text follows a {@code set -e} line. Answers its script name. */
    String script(String name, String body) {
        Path p = dir.resolve(name);
        try {
            Files.writeString(p, "#!/bin/sh\nset -e\n" + body + "\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return scriptDir.relativize(p).toString();
    }

    Path file(String name) {
        return dir.resolve(name);
    }

    List<String> lines(String name) {
        try {
            Path p = dir.resolve(name);
            return Files.exists(p) ? Files.readAllLines(p) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Publishes the tree as the registry would and waits until execution-service's read model has it. */
    void register(ProcessTrees tree) {
        fixtures.register(tree);
    }

    void policy(long pid, Map<String, Object> policy) {
        given().contentType(ContentType.JSON).body(policy).put("/runner/processes/" + pid).then().statusCode(200);
    }

    void bucket(long pid, String bucket) {
        given().contentType(ContentType.JSON).body(Map.of("bucket", bucket)).post("/runner/processes/" + pid + "/buckets")
                .then().statusCode(201);
    }

    String status(long pid, String bucket) {
        return given().queryParam("limit", 500).get("/runner/processes/" + pid + "/buckets").then().statusCode(200)
                .extract().jsonPath().getString("items.find { it.bucket == '" + bucket + "' }.status");
    }

    @Override
    public void close() {
        fixtures.close();
    }
}
