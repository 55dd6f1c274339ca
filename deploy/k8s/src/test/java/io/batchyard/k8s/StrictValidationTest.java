package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rendered resource of the base and both overlays passes strict validation (StrictValidator); the CloudNativePG
 * resources of a tree go through node together (CloudNativePg), and are not checked where node or npm is missing.
 */
class StrictValidationTest {

    static java.util.stream.Stream<String> trees() {
        return Manifests.trees();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyResourceIsValid(String tree) {
        List<String> problems = StrictValidator.problems(Manifests.of(tree).resources);
        assertThat(problems).as(tree).isEmpty();
    }
}
