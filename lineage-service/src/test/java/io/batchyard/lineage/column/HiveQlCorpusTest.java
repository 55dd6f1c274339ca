package io.batchyard.lineage.column;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The hand-checked HiveQL corpus: each {@code NN-name.sql} under {@code hiveql-corpus/} has an {@code NN-name.expected}
 * with exactly the column edges ({@code source -> target}) and idle columns ({@code idle db.t.c}) it must produce, or
 * the single word {@code error} when it must be stored as a parse error. Schemas come from {@code schemas.txt}; the
 * variables a registration would send, from {@code NN-name.vars} ({@code key=value} lines) when there is one.
 */
class HiveQlCorpusTest {

    private static final Path CORPUS = corpus();
    private final ColumnLineageExtractor extractor = new ColumnLineageExtractor();

    @Test
    void corpusHasAtLeastThirtyStatements() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            assertThat(files.filter(p -> p.toString().endsWith(".sql")).count()).isGreaterThanOrEqualTo(30);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusStatementGivesItsHandCheckedEdges() throws IOException {
        TableSchemas schemas = schemas();
        List<Path> sqls;
        try (Stream<Path> files = Files.list(CORPUS)) {
            sqls = files.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
        }
        return sqls.stream().map(sql -> DynamicTest.dynamicTest(sql.getFileName().toString(), () -> {
            String name = sql.getFileName().toString().replace(".sql", "");
            List<String> expected = Files.readAllLines(CORPUS.resolve(name + ".expected")).stream()
                    .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
            QueryLineage lineage = extractor.extract(Files.readString(sql), null, variables(name), schemas);
            if (expected.equals(List.of("error"))) {
                assertThat(lineage.failed()).as("%s must be a parse error", name).isTrue();
                assertThat(lineage.errorSummary()).isNotBlank();
                return;
            }
            assertThat(lineage.failed()).as("%s: %s", name, lineage.errorSummary()).isFalse();
            Set<String> actualEdges = lineage.edges().stream().map(ColumnEdge::notation)
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> expectedEdges = expected.stream().filter(l -> l.contains("->"))
                    .map(l -> l.replaceAll("\\s+", " ")).collect(Collectors.toCollection(TreeSet::new));
            assertThat(actualEdges).as("%s edges (warnings %s)", name, lineage.warnings()).isEqualTo(expectedEdges);
            Set<String> actualIdle = lineage.statements().stream().flatMap(s -> s.tables().stream())
                    .flatMap(t -> t.idleColumns().stream().map(c -> "idle " + t.name() + "." + c))
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> expectedIdle = expected.stream().filter(l -> l.startsWith("idle "))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(actualIdle).as("%s idle columns", name).isEqualTo(expectedIdle);
        }));
    }

    private static Map<String, String> variables(String name) throws IOException {
        Path file = CORPUS.resolve(name + ".vars");
        Map<String, String> variables = new HashMap<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                String[] parts = line.split("=", 2);
                if (parts.length == 2) {
                    variables.put(parts[0].strip(), parts[1].strip());
                }
            }
        }
        return variables;
    }

    static TableSchemas schemas() throws IOException {
        Map<String, List<String>> tables = new HashMap<>();
        for (String line : Files.readAllLines(CORPUS.resolve("schemas.txt"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split(":", 2);
            tables.put(parts[0].strip(), Arrays.stream(parts[1].split(",")).map(String::strip).toList());
        }
        return name -> Optional.ofNullable(tables.get(name));
    }

    private static Path corpus() {
        try {
            return Path.of(HiveQlCorpusTest.class.getResource("/hiveql-corpus").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
