package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validator is not a rubber stamp: each fixture in src/test/resources/broken carries one mistake that an API
 * server with strict validation refuses, and its first line names the problem the validator must report
 * ({@code # expect: ...}). The CloudNativePG fixtures are refused by the npm-based check (CloudNativePg) and skipped
 * where node or npm is missing.
 */
class BrokenFixturesTest {

    static Stream<Path> fixtures() throws IOException {
        return Files.list(Path.of("src/test/resources/broken")).filter(p -> p.toString().endsWith(".yaml")).sorted();
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void isRefusedForItsMistake(Path fixture) throws IOException {
        String first = Files.readAllLines(fixture).get(0);
        assertThat(first).startsWith("# expect: ");
        String expected = first.substring("# expect: ".length());
        JsonNode resource = Kustomize.readAll(fixture).get(0);
        assumeTrue(!CloudNativePg.handles(resource) || CloudNativePg.unavailable() == null,
                () -> fixture.getFileName() + ": " + CloudNativePg.unavailable());
        List<String> problems = StrictValidator.problems(resource);
        assertThat(problems).as(fixture.getFileName().toString()).isNotEmpty()
                .anySatisfy(p -> assertThat(p).contains(expected));
    }
}
