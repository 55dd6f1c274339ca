package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * grafana/batchyard.json is a dashboard Grafana imports as it is (datasource chosen at import through a variable,
 * unique panel ids, a place on the grid for each panel) and it draws exactly the metrics the services export, by the
 * names they export them under.
 */
class GrafanaDashboardTest {

    /** The services' metrics (Micrometer names as Prometheus shows them, without _bucket/_sum/_count/_max). */
    private static final Set<String> METRICS = Set.of("batchyard_lifecycle_transitions_total", "batchyard_outbox_backlog",
            "batchyard_outbox_oldest_unpublished_seconds", "batchyard_events_consumed_total",
            "batchyard_events_dead_lettered_total", "batchyard_fanout_latency_seconds", "batchyard_claim_latency_seconds",
            "batchyard_runner_buckets", "batchyard_merge_jobs", "batchyard_merged_bytes_total",
            "batchyard_lineage_parse_total", "http_server_requests_seconds", "batchyard_deadlines",
            "batchyard_deadline_checker_lag_seconds", "batchyard_deadline_miss_delay_seconds");
    private static final Pattern METRIC = Pattern.compile("\\b((?:batchyard|http_server)_[a-z_]+)\\s*\\{");

    @Test
    void isAnImportableDashboardOverTheServicesMetrics() throws IOException {
        JsonNode d = new ObjectMapper().readTree(Path.of("grafana/batchyard.json").toFile());
        assertThat(d.path("title").asText()).isNotBlank();
        assertThat(d.path("uid").asText()).matches("[a-z0-9-]{1,40}");
        assertThat(d.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(36);
        assertThat(d.at("/templating/list").findValuesAsText("name")).contains("datasource", "namespace");

        Set<Integer> ids = new HashSet<>();
        Set<String> used = new TreeSet<>();
        List<String> exprs = new ArrayList<>();
        for (JsonNode p : d.path("panels")) {
            assertThat(ids.add(p.path("id").asInt())).as("panel id " + p.path("id")).isTrue();
            assertThat(p.path("gridPos").path("w").asInt()).isBetween(1, 24);
            assertThat(p.path("gridPos").path("x").asInt() + p.path("gridPos").path("w").asInt()).isLessThanOrEqualTo(24);
            if (p.path("type").asText().equals("row")) {
                continue;
            }
            assertThat(p.at("/datasource/uid").asText()).as(p.path("title").asText()).isEqualTo("${datasource}");
            assertThat(p.path("targets")).as(p.path("title").asText()).isNotEmpty();
            for (JsonNode t : p.path("targets")) {
                String expr = t.path("expr").asText();
                exprs.add(expr);
                assertThat(balanced(expr)).as(expr).isTrue();
                Matcher m = METRIC.matcher(expr);
                boolean any = false;
                while (m.find()) {
                    any = true;
                    String metric = m.group(1).replaceAll("_(bucket|sum|count|max)$", "");
                    assertThat(METRICS).as("metric of " + expr).contains(metric);
                    used.add(metric);
                }
                assertThat(any).as(expr + " selects a metric").isTrue();
                assertThat(expr).as("filtered to the chosen namespace").contains("namespace=\"$namespace\"");
            }
        }
        assertThat(used).as("every metric is drawn").isEqualTo(METRICS);
        // The histogram is read through its buckets, the counters through rate or increase, never raw.
        assertThat(exprs).anyMatch(e -> e.contains("histogram_quantile") && e.contains("batchyard_fanout_latency_seconds_bucket"));
        for (String e : exprs) {
            Matcher counter = Pattern.compile("(batchyard_[a-z_]+_total|_count|_sum)\\{[^}]*}\\[").matcher(e);
            Matcher raw = Pattern.compile("(batchyard_[a-z_]+_total)\\{[^}]*}(?!\\[)").matcher(e);
            assertThat(raw.find()).as("a counter inside rate() or increase(): " + e).isFalse();
            if (counter.find()) {
                assertThat(e).containsAnyOf("rate(", "increase(");
            }
        }
        // Panels sit on the grid without overlapping.
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode p : d.path("panels")) {
            JsonNode g = p.path("gridPos");
            int[] box = {g.path("x").asInt(), g.path("y").asInt(), g.path("w").asInt(), g.path("h").asInt()};
            for (int[] other : boxes) {
                boolean overlap = box[0] < other[0] + other[2] && other[0] < box[0] + box[2]
                        && box[1] < other[1] + other[3] && other[1] < box[1] + box[3];
                assertThat(overlap).as(p.path("title").asText() + " overlaps another panel").isFalse();
            }
            boxes.add(box);
        }
    }

    private static boolean balanced(String expr) {
        int depth = 0;
        for (char c : expr.toCharArray()) {
            depth += c == '(' || c == '{' || c == '[' ? 1 : c == ')' || c == '}' || c == ']' ? -1 : 0;
            if (depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }
}
