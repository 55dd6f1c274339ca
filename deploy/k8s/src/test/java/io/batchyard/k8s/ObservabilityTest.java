package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Production's deployables log JSON lines and export their spans to the collector its ConfigMap names, through the
 * settings the services read; the PrometheusRule's alerts are well-formed PromQL over metrics the services export,
 * by the names they export them under.
 */
class ObservabilityTest {

    private static final Set<String> ALERTS = Set.of("BatchyardOutboxBacklogAging", "BatchyardOutboxBacklogStuck",
            "BatchyardEventsDeadLettered", "BatchyardConsumerLagging", "BatchyardRunnerNotReporting",
            "BatchyardRunnerStalled", "BatchyardDeadlineMissed", "BatchyardDeadlineCheckerLagging");
    /** PromQL's functions and aggregations the rules use, and its binary and grouping keywords. */
    private static final Set<String> FUNCTIONS = Set.of("max", "min", "sum", "avg", "count", "rate", "increase",
            "changes", "absent", "histogram_quantile");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{([^}]*)}");

    static Stream<String> trees() {
        return Manifests.trees();
    }

    @Test
    void productionsDeployablesLogJsonAndExportSpansToTheConfiguredCollector() {
        Manifests prod = Manifests.of("production");
        JsonNode settings = prod.get("ConfigMap", "batchyard-observability").path("data");
        URI collector = URI.create(settings.path("OTEL_EXPORTER_OTLP_ENDPOINT").asText());
        assertThat(collector.getScheme()).isIn("http", "https");
        assertThat(collector.getHost()).isNotBlank();
        assertThat(collector.getPort()).isPositive();
        assertThat(settings.path("QUARKUS_LOG_CONSOLE_JSON_ENABLED").asText()).isEqualTo("true");

        // The switches are the ones the deployables read: platform/http maps the OTLP variable onto Quarkus' exporter
        // setting, and each service with the JSON formatter turns it off in its application.properties.
        assertThat(SourceFacts.read(SourceFacts.REPO.resolve(
                "platform/http/src/main/resources/META-INF/microprofile-config.properties")))
                .contains("quarkus.otel.exporter.otlp.endpoint=${OTEL_EXPORTER_OTLP_ENDPOINT:}");
        Set<String> jsonLogging = new TreeSet<>();
        for (String app : SourceFacts.DEPLOYABLES) {
            assertThat(SourceFacts.read(SourceFacts.REPO.resolve(app + "/pom.xml"))).as(app)
                    .contains("<artifactId>batchyard-http</artifactId>");
            if (SourceFacts.read(SourceFacts.REPO.resolve(app + "/pom.xml"))
                    .contains("<artifactId>quarkus-logging-json</artifactId>")) {
                jsonLogging.add(app);
                Path properties = SourceFacts.REPO.resolve(app + "/src/main/resources/application.properties");
                assertThat(SourceFacts.read(properties)).as(app).contains("quarkus.log.console.json.enabled=");
            }
        }
        assertThat(jsonLogging).as("the deployables with a JSON log format")
                .containsExactly("execution-service", "lineage-service", "queue-service", "registry-service");

        for (String app : SourceFacts.DEPLOYABLES) {
            JsonNode container = Manifests.container(prod.get("Deployment", app));
            assertThat(resolved(prod, container, "OTEL_EXPORTER_OTLP_ENDPOINT")).as(app)
                    .isEqualTo(collector.toString());
            assertThat(resolved(prod, container, "QUARKUS_LOG_CONSOLE_JSON_ENABLED")).as(app)
                    .isEqualTo(jsonLogging.contains(app) ? "true" : null);
        }
        // Elsewhere logs stay lines for people, and spans stay in the pod (no collector is known there).
        for (String tree : List.of("base", "local")) {
            Manifests m = Manifests.of(tree);
            for (String app : SourceFacts.DEPLOYABLES) {
                JsonNode container = Manifests.container(m.get("Deployment", app));
                assertThat(resolved(m, container, "OTEL_EXPORTER_OTLP_ENDPOINT")).as(tree + " " + app).isNull();
                assertThat(resolved(m, container, "QUARKUS_LOG_CONSOLE_JSON_ENABLED")).as(tree + " " + app).isNull();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("trees")
    void theAlertsReadMetricsTheServicesExportInWellFormedPromQl(String tree) {
        JsonNode rule = Manifests.of(tree).get("PrometheusRule", "batchyard");
        Set<String> exported = exportedMetrics();
        Set<String> onTheBoard = boardMetrics();
        Map<String, String> exprs = new HashMap<>();
        for (JsonNode group : rule.at("/spec/groups")) {
            for (JsonNode r : group.path("rules")) {
                String alert = r.path("alert").asText();
                exprs.put(alert, r.path("expr").asText());
                assertThat(r.at("/labels/severity").asText()).as(alert).isIn("warning", "critical");
                assertThat(r.at("/annotations/summary").asText()).as(alert).isNotBlank();
                assertThat(r.at("/annotations/description").asText()).as(alert).isNotBlank();
                if (r.has("for")) {
                    assertThat(r.path("for").asText()).as(alert).matches("\\d+[smh]");
                }
            }
        }
        assertThat(exprs.keySet()).isEqualTo(ALERTS);

        Set<String> used = new TreeSet<>();
        exprs.forEach((alert, expr) -> {
            List<String> metrics = metrics(expr);
            assertThat(metrics).as(alert + " selects a metric").isNotEmpty();
            for (String metric : metrics) {
                assertThat(exported).as(alert + ": " + metric + " is a metric the services export").contains(metric);
                if (metric.startsWith("batchyard_")) {
                    assertThat(onTheBoard).as(alert + ": " + metric + " is drawn on the Grafana board")
                            .contains(metric);
                }
            }
            used.addAll(metrics);
            // A counter only means something as a rate.
            Matcher counter = Pattern.compile("(\\w+)\\((\\w+_total)\\{").matcher(expr);
            while (counter.find()) {
                assertThat(counter.group(1)).as(alert).isIn("rate", "increase");
            }
            assertThat(expr).as(alert).doesNotContainPattern("\\w+_total\\{[^}]*}(?!\\[)");
        });
        assertThat(used).contains("batchyard_outbox_oldest_unpublished_seconds", "batchyard_events_dead_lettered_total",
                "kafka_consumer_fetch_manager_records_lag_max", "batchyard_runner_buckets");
    }

    @Test
    void thePromQlCheckRefusesWhatPrometheusWouldNot() {
        assertThat(metrics("max by (service) (batchyard_outbox_backlog{namespace=\"batchyard\"}) > 1"))
                .containsExactly("batchyard_outbox_backlog");
        for (String bad : List.of("max(batchyard_outbox_backlog{namespace=\"batchyard\"}",
                "maxx(up{namespace=\"batchyard\"})", "batchyard_outbox_backlog > 1", "up{job=\"x\"} == 0")) {
            Throwable refused = catchThrowable(() -> metrics(bad));
            assertThat(refused).as(bad).isInstanceOf(AssertionError.class);
        }
    }

    /**
     * The metric names an expression selects. Fails on unbalanced brackets, a function PromQL does not have (of the
     * ones these rules may use), a metric selected without the namespace's label, or any other bare word.
     */
    static List<String> metrics(String expr) {
        int depth = 0;
        for (char c : expr.toCharArray()) {
            depth += c == '(' || c == '{' || c == '[' ? 1 : c == ')' || c == '}' || c == ']' ? -1 : 0;
            assertThat(depth).as("brackets of " + expr).isNotNegative();
        }
        assertThat(depth).as("brackets of " + expr).isZero();
        List<String> metrics = new ArrayList<>();
        Matcher m = SELECTOR.matcher(expr);
        while (m.find()) {
            metrics.add(m.group(1));
            assertThat(m.group(2)).as(m.group()).contains("namespace=\"batchyard\"");
        }
        String rest = SELECTOR.matcher(expr).replaceAll(" ")
                .replaceAll("\\[\\d+[smhd]]", " ")
                .replaceAll("\\b(by|without)\\s*\\([a-z_, ]*\\)", " ");
        Matcher word = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?").matcher(rest);
        while (word.find()) {
            boolean call = word.group(2) != null;
            assertThat(call ? FUNCTIONS.contains(word.group(1)) : KEYWORDS.contains(word.group(1)))
                    .as("'" + word.group(1) + "' in " + expr).isTrue();
        }
        return metrics;
    }

    /**
     * What the services export: Batchyard's meters as the top README's Metrics table names them, each defined in
     * the sources (a counter's name there lacks {@code _total}, dotted or not); and the meters of Kafka's consumer as
     * the services serve them: Micrometer's Kafka binder, which Quarkus binds to every Kafka client it creates, on a
     * consumer, scraped from the Prometheus registry the services use.
     */
    static Set<String> exportedMetrics() {
        Set<String> exported = new TreeSet<>();
        String sources = mainSources();
        Matcher row = Pattern.compile("(?m)^\\| `(batchyard_[a-z_]+)` \\|")
                .matcher(SourceFacts.read(SourceFacts.REPO.resolve("README.md")));
        while (row.find()) {
            String name = row.group(1);
            String base = name.replaceAll("_total$", "");
            if (sources.contains("\"" + base.replace('_', '.') + "\"") || sources.contains("\"" + name + "\"")) {
                exported.add(name);
            }
        }
        assertThat(exported).contains("batchyard_outbox_backlog");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "meter-names");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer()); KafkaClientMetrics meters = new KafkaClientMetrics(consumer)) {
            meters.bindTo(registry);
            for (String line : registry.scrape().split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    exported.add(line.split("[{ ]", 2)[0]);
                }
            }
        }
        assertThat(exported).contains("kafka_consumer_fetch_manager_records_lag_max");
        return exported;
    }

    /** Every metric the Grafana board draws, histogram suffixes removed. */
    private static Set<String> boardMetrics() {
        Set<String> drawn = new TreeSet<>();
        Matcher m = Pattern.compile("\\b(batchyard_[a-z_]+)\\s*\\{")
                .matcher(SourceFacts.read(Manifests.K8S.resolve("grafana/batchyard.json")));
        while (m.find()) {
            drawn.add(m.group(1).replaceAll("_(bucket|sum|count)$", ""));
        }
        return drawn;
    }

    /**
     * The Java sources of every module that runs in a deployable: the services', their own library modules' (such as
     * queue-service/compaction) and the shared ones' (schemas/*, platform/*).
     */
    private static String mainSources() {
        StringBuilder all = new StringBuilder();
        List<Path> roots = new ArrayList<>();
        List<Path> parents = new ArrayList<>(List.of(SourceFacts.REPO.resolve("schemas"),
                SourceFacts.REPO.resolve("platform")));
        SourceFacts.DEPLOYABLES.forEach(app -> {
            roots.add(SourceFacts.REPO.resolve(app + "/src/main/java"));
            parents.add(SourceFacts.REPO.resolve(app));
        });
        for (Path parent : parents) {
            try (Stream<Path> modules = Files.list(parent)) {
                modules.map(p -> p.resolve("src/main/java")).forEach(roots::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (Path root : roots.stream().filter(Files::isDirectory).toList()) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(p -> all.append(SourceFacts.read(p)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all.toString();
    }

    /** A container's variable as Kubernetes sets it: its value, its ConfigMap key's value, or null when unset. */
    private static String resolved(Manifests m, JsonNode container, String name) {
        JsonNode e = Manifests.env(container, name);
        if (!e.isMissingNode()) {
            JsonNode ref = e.at("/valueFrom/configMapKeyRef");
            if (ref.isMissingNode()) {
                return e.path("value").asText();
            }
            JsonNode value = m.get("ConfigMap", ref.path("name").asText()).at("/data/" + ref.path("key").asText());
            assertThat(value.isMissingNode()).as(name + " from ConfigMap " + ref).isFalse();
            return value.asText();
        }
        for (JsonNode from : container.path("envFrom")) {
            JsonNode value = m.get("ConfigMap", from.at("/configMapRef/name").asText()).at("/data/" + name);
            if (!value.isMissingNode()) {
                return value.asText();
            }
        }
        return null;
    }
}
