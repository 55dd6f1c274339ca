package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --output table|json|yaml} on a view, a lifecycle answer and a refusal, against a fake execution-service. */
class OutputFormatTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();

    /** GET /runs as execution-service answers it: the fields in its order, a null among them. */
    private static final String RUNS = "{\"items\":[{\"instanceExecId\":41,\"processId\":12,\"state\":\"FAILED\","
            + "\"startTs\":\"2026-11-28T10:00:00Z\",\"endTs\":\"2026-11-28T10:05:00Z\",\"targetBatchId\":7,"
            + "\"retry\":false,\"failureCode\":3,\"failureText\":\"load.sh: no space left\"},"
            + "{\"instanceExecId\":40,\"processId\":12,\"state\":\"COMPLETED\",\"startTs\":\"2026-11-27T10:00:00Z\","
            + "\"endTs\":null,\"targetBatchId\":6,\"retry\":false,\"failureCode\":null,\"failureText\":null}],"
            + "\"total\":2,\"limit\":20,\"offset\":0}";

    private static final String REFUSAL = "{\"type\":\"about:blank\",\"status\":409,\"code\":106,"
            + "\"title\":\"This sub process is already running\",\"detail\":\"step 7 has a running instance\"}";

    private FakeService execution;

    @BeforeEach
    void start(@TempDir Path home) {
        execution = new FakeService().answer("/runs", 200, RUNS).answer("/steps/7/init", 409, REFUSAL)
                .answer("/steps/5,6/halt", 200, "{\"subProcessIds\":[5,6]}").asExecution(home);
    }

    @AfterEach
    void stop() {
        execution.close();
        FakeService.restoreEnvironment();
    }

    @Test
    void tableIsTheDefaultAndTheRenderingForPeople() {
        FakeService.Run plain = FakeService.run("runs", "list");
        FakeService.Run table = FakeService.run("runs", "list", "--output", "table");
        assertThat(plain.status()).isZero();
        assertThat(plain.out()).isEqualTo(table.out());
        assertThat(plain.out().lines().toList()).hasSize(3);
        assertThat(plain.out().lines().findFirst().orElseThrow()).startsWith("RUN  PROCESS  STATE ");
        assertThat(plain.out()).contains("3 load.sh: no space left");
    }

    @Test
    void jsonIsTheServicesAnswerPrettyInItsOrder() throws Exception {
        FakeService.Run r = FakeService.run("runs", "list", "--output", "json");
        assertThat(r.status()).isZero();
        assertThat(JSON.readTree(r.out())).isEqualTo(JSON.readTree(RUNS));
        assertThat(r.out()).startsWith("{\n  \"items\" : [ {\n    \"instanceExecId\" : 41,\n    \"processId\" : 12,");
        assertThat(r.out()).contains("\"endTs\" : null");
        assertThat(FakeService.run("runs", "list", "--json").out()).as("--json is --output json").isEqualTo(r.out());
    }

    @Test
    void yamlIsTheSameTree() throws Exception {
        FakeService.Run r = FakeService.run("runs", "list", "--output", "yaml");
        assertThat(r.status()).isZero();
        assertThat(YAML.readTree(r.out())).isEqualTo(JSON.readTree(RUNS));
        assertThat(r.out()).startsWith("items:\n- instanceExecId: 41\n  processId: 12\n  state: \"FAILED\"\n");
    }

    @Test
    void aLifecycleAnswerInEachFormat() throws Exception {
        assertThat(FakeService.run("halt-step", "5,6").out()).isEqualTo("halted steps 5, 6\n");
        FakeService.Run json = FakeService.run("halt-step", "5", "6", "--output", "json");
        assertThat(JSON.readTree(json.out())).isEqualTo(JSON.readTree("{\"subProcessIds\":[5,6]}"));
        assertThat(FakeService.run("halt-step", "5,6", "--output", "yaml").out())
                .isEqualTo("subProcessIds:\n- 5\n- 6\n");
    }

    @Test
    void aRefusalKeepsItsExitStatusAndIsTheProblemObjectOnStderr() throws Exception {
        FakeService.Run table = FakeService.run("init-step", "7");
        assertThat(table.status()).isEqualTo(16);
        assertThat(table.err()).contains("init-step: Batchyard refused:").contains("106");

        JsonNode problem = JSON.readTree("{\"status\":409,\"code\":106,\"title\":\"This sub process is already "
                + "running\",\"detail\":\"step 7 has a running instance\",\"exit\":16}");
        FakeService.Run json = FakeService.run("init-step", "7", "--output", "json");
        assertThat(json.status()).isEqualTo(16);
        assertThat(json.out()).isEmpty();
        assertThat(JSON.readTree(json.err())).isEqualTo(problem);

        FakeService.Run yaml = FakeService.run("init-step", "7", "--output", "yaml");
        assertThat(yaml.status()).isEqualTo(16);
        assertThat(yaml.out()).isEmpty();
        assertThat(YAML.readTree(yaml.err())).isEqualTo(problem);
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        FakeService.Run r = FakeService.run("runs", "list", "--output", "xml");
        assertThat(r.status()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--output").contains("table, json, yaml");
    }
}
