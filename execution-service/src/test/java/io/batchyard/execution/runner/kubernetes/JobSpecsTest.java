package io.batchyard.execution.runner.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.execution.runner.StepLaunch;
import io.batchyard.readmodel.ProcessDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSpecsTest {

    static final JobSpecs.Defaults DEFAULTS = new JobSpecs.Defaults("debian:bookworm-slim", "batchyard-job", "500m", "512Mi", 600);

    @Test
    void theNameIsStableForTheSameWorkDiffersPerStepRunAndIsAValidDnsLabel() {
        String a = JobSpecs.name("7/8/20240301", 123);
        assertThat(a).isEqualTo(JobSpecs.name("7/8/20240301", 123)).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
                .hasSizeLessThanOrEqualTo(63);
        assertThat(JobSpecs.name("7/8/20240301", 124)).isNotEqualTo(a).startsWith(a.substring(0, 20));
        assertThat(JobSpecs.name("7/8/20240302", 123)).isNotEqualTo(a);
        assertThat(JobSpecs.name("7/8/20240301/" + "v".repeat(500), Long.MAX_VALUE)).hasSizeLessThanOrEqualTo(63);
        assertThat(JobSpecs.workHash("7/8/20240301")).hasSize(40).isEqualTo(JobSpecs.workHash("7/8/20240301"))
                .isNotEqualTo(JobSpecs.workHash("7/8/20240301/x"));
    }

    @Test
    void quantitiesAreTheStepsOwnWhenValidElseTheDefaults() {
        assertThat(JobSpecs.quantity(launch(Map.of("cpu", "2")), "cpu", "500m")).isEqualTo("2");
        assertThat(JobSpecs.quantity(launch(Map.of("memory", "1.5Gi")), "memory", "512Mi")).isEqualTo("1.5Gi");
        assertThat(JobSpecs.quantity(launch(Map.of()), "memory", "512Mi")).isEqualTo("512Mi");
        for (String bad : List.of("lots", "-1", "0", "1 Gi", "1GB", "", "1e")) {
            assertThatThrownBy(() -> JobSpecs.quantity(launch(Map.of("memory", bad)), "memory", "512Mi"))
                    .as(bad).isInstanceOf(JobSpecs.Invalid.class).hasMessageContaining("property kubernetes/memory of step 8");
        }
    }

    @Test
    void anImageWithBlanksOrShellCharactersIsRefused() {
        assertThat(JobSpecs.image(launch(Map.of("image", "ghcr.io/acme/etl:1.2@sha256:ab12")), DEFAULTS))
                .isEqualTo("ghcr.io/acme/etl:1.2@sha256:ab12");
        assertThat(JobSpecs.image(launch(Map.of()), DEFAULTS)).isEqualTo("debian:bookworm-slim");
        assertThatThrownBy(() -> JobSpecs.image(launch(Map.of("image", "etl;rm -rf /")), DEFAULTS))
                .isInstanceOf(JobSpecs.Invalid.class).hasMessageContaining("kubernetes/image");
    }

    @Test
    void theCommandIsTheScriptsWordsThenTheArgumentsNeverAShell() {
        StepLaunch l = new StepLaunch(7, 8, 9, step(Map.of()), "etl/load.sh --all", List.of("$(rm -rf x)", "20240301"),
                List.of("$(rm -rf x)", "20240301"), Map.of(), Duration.ofSeconds(1), "7/8/20240301");
        assertThat(JobSpecs.command(l)).containsExactly("etl/load.sh", "--all", "$(rm -rf x)", "20240301");
    }

    static StepLaunch launch(Map<String, String> kubernetes) {
        return new StepLaunch(7, 8, 9, step(kubernetes), "run.sh", List.of(), List.of(), Map.of(), Duration.ofSeconds(60),
                "7/8/20240301");
    }

    static ProcessDefinition step(Map<String, String> kubernetes) {
        List<ProcessDefinition.Property> props = kubernetes.entrySet().stream()
                .map(e -> new ProcessDefinition.Property("kubernetes", e.getKey(), e.getValue())).toList();
        return new ProcessDefinition(8, 7L, "step", 1, true, List.of(), null, List.of(), false, 2, props);
    }
}
