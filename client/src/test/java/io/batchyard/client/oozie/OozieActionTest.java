package io.batchyard.client.oozie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.client.ProblemException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OozieActionTest {

    @AfterEach
    void clear() {
        System.clearProperty(OozieAction.OUTPUT_PROPERTY);
        System.clearProperty("batchyard.token");
    }

    @Test
    void argumentsAreNameValuePairsAndAnEmptyElValueIsAbsent() {
        Args a = Args.parse(new String[] {"--max-batch", "1", "--process-id", "10", "--batch-marking", "",
            "--sub-process-id", "11,12"});
        assertThat(a.requiredLong("process-id")).isEqualTo(10);
        assertThat(a.optionalLong("max-batch")).isEqualTo(1);
        assertThat(a.optional("batch-marking")).isNull();
        assertThat(a.requiredLongs("sub-process-id")).containsExactly(11L, 12L);
        assertThat(Args.parse(new String[] {"--file-hash", "--path", "/p"}).optional("file-hash")).isNull();
        assertThatThrownBy(() -> a.required("path")).hasMessage("missing --path");
        assertThatThrownBy(() -> Args.parse(new String[] {"10"})).hasMessageContaining("expected --name value");
        assertThatThrownBy(() -> Args.parse(new String[] {"--process-id", "x"}).requiredLong("process-id"))
                .hasMessage("--process-id must be a number, got 'x'");
    }

    @Test
    void theAnswerIsWrittenWhereCaptureOutputReadsIt(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("action.properties");
        System.setProperty(OozieAction.OUTPUT_PROPERTY, out.toString());
        System.setProperty("batchyard.token", "t");
        int status = OozieAction.run("InitJob", new String[] {"--process-id", "10"},
                (args, client) -> Map.of("min-batch-id-map.12", "9", "last-recoverable-sp-id", ""), System.err);
        assertThat(status).isZero();
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(out)) {
            p.load(r);
        }
        assertThat(p).containsOnly(Map.entry("min-batch-id-map.12", "9"), Map.entry("last-recoverable-sp-id", ""));
    }

    @Test
    void aRefusalExitsNonZeroWithTheCodeAndText() {
        System.setProperty("batchyard.token", "t");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = OozieAction.run("InitStep", new String[] {"--sub-process-id", "12"}, (args, client) -> {
            throw new ProblemException(409, 106, "Step running", "This sub process is already under execution !");
        }, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(OozieAction.REFUSED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Batchyard refused InitStep: code 106 (HTTP 409)",
                "This sub process is already under execution !");
    }

    @Test
    void badArgumentsAreAUsageError() {
        System.setProperty("batchyard.token", "t");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = OozieAction.run("HaltStep", new String[] {}, (args, client) -> Map.of(
                "x", String.valueOf(args.requiredLongs("sub-process-id"))), new PrintStream(err, true,
                StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(OozieAction.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("HaltStep: missing --sub-process-id");
    }

    @Test
    void creationTimesOfEveryKnownShapeBecomeIsoWithAnOffset() {
        assertThat(RegisterFile.creationTs("1714557600000")).isEqualTo("2024-05-01T10:00Z");
        assertThat(RegisterFile.creationTs("2024-05-01 10:00:00")).isEqualTo("2024-05-01T10:00Z");
        assertThat(RegisterFile.creationTs("2024-05-01T12:00:00+02:00")).isEqualTo("2024-05-01T12:00+02:00");
        assertThat(RegisterFile.creationTs(null)).isNull();
        assertThatThrownBy(() -> RegisterFile.creationTs("yesterday")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyMainHasTheNameTheGeneratedWorkflowsUse() throws Exception {
        for (String name : List.of("InitJob", "InitStep", "HaltStep", "TermStep", "HaltJob", "TermJob",
                "RegisterFile")) {
            Class<?> main = Class.forName("io.batchyard.client.oozie." + name);
            assertThat(main.getMethod("main", String[].class)).isNotNull();
            assertThat(main.getMethod("run", String[].class).getReturnType()).isEqualTo(int.class);
        }
    }
}
