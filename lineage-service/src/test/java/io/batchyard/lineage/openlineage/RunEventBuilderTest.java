package io.batchyard.lineage.openlineage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.lineage.column.ColumnEdge;
import io.batchyard.lineage.column.ColumnLineageExtractor;
import io.batchyard.lineage.column.Endpoint;
import io.batchyard.lineage.column.QueryLineage;
import io.batchyard.lineage.column.StatementLineage;
import java.net.URI;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * RunEvents built from real parses, checked against the rules of the OpenLineage 2-0-2 spec as the spec states them:
 * required fields, a UUID run id, RFC 3339 times, URIs for producers and schema URLs, every facet with
 * {@code _producer} and the {@code _schemaURL} of its own facet schema, and column lineage that only names fields the
 * datasets' {@code schema} facets list (a backend drops lineage to fields it does not know).
 */
class RunEventBuilderTest {

    private static final RunEventBuilder.Naming NAMING = new RunEventBuilder.Naming("batchyard-test",
            "https://github.com/batchyard/batchyard/tree/0.1.0-SNAPSHOT");
    private static final String NS = "hive://metastore.example:10000";
    private static final OffsetDateTime AT = OffsetDateTime.of(2024, 5, 1, 6, 30, 15, 123_456_789, ZoneOffset.UTC);
    private static final Pattern RFC3339 =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})");
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Map<String, String> FACET_SCHEMAS = Map.of("schema", "SchemaDatasetFacet",
            "columnLineage", "ColumnLineageDatasetFacet", "lifecycleStateChange", "LifecycleStateChangeDatasetFacet",
            "sql", "SQLJobFacet", "nominalTime", "NominalTimeRunFacet", "parent", "ParentRunFacet");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aChainOfTwoRunsHandsTheTableOn() {
        Map<String, Object> first = event("COMPLETE", null, "2024-05-01", Map.of("raw.events", List.of("id", "name")),
                "INSERT OVERWRITE TABLE stage.events SELECT e.id, upper(e.name) AS name FROM raw.events e");
        Map<String, Object> second = event("COMPLETE", null, "2024-05-01", Map.of("stage.events", List.of("id", "name")),
                "INSERT INTO TABLE mart.names SELECT s.name FROM stage.events s");
        valid(first);
        valid(second);
        assertThat(names(first, "outputs")).containsExactly("stage.events");
        assertThat(names(second, "inputs")).containsExactly("stage.events");
        assertThat(subtype(first, "stage.events", "name", "raw.events", "name")).isEqualTo("TRANSFORMATION");
        assertThat(subtype(first, "stage.events", "id", "raw.events", "id")).isEqualTo("IDENTITY");
        assertThat(lifecycle(first, "stage.events")).isEqualTo("OVERWRITE");
        // INSERT INTO changes no table's lifecycle
        assertThat(facets(dataset(second, "outputs", "mart.names"))).doesNotContainKey("lifecycleStateChange");
        assertThat(first).extracting(e -> ((Map<?, ?>) ((Map<?, ?>) e.get("run")).get("facets")).get("nominalTime"))
                .extracting(f -> ((Map<?, ?>) f).get("nominalStartTime")).isEqualTo("2024-05-01T00:00:00Z");
    }

    @Test
    void aJoinWithAggregationNamesEveryClauseAndCountsAsAggregation() {
        Map<String, Object> e = event("COMPLETE", null, null,
                Map.of("sales.orders", List.of("order_id", "customer_id", "amount", "status"),
                        "sales.customers", List.of("customer_id", "region")),
                "INSERT OVERWRITE TABLE mart.revenue SELECT c.region, sum(o.amount) AS total, count(o.order_id) AS n "
                        + "FROM sales.orders o JOIN sales.customers c ON o.customer_id = c.customer_id "
                        + "WHERE o.status = 'PAID' GROUP BY c.region ORDER BY total");
        valid(e);
        assertThat(subtype(e, "mart.revenue", "total", "sales.orders", "amount")).isEqualTo("AGGREGATION");
        assertThat(subtype(e, "mart.revenue", "n", "sales.orders", "order_id")).isEqualTo("AGGREGATION");
        assertThat(subtype(e, "mart.revenue", "region", "sales.customers", "region")).isEqualTo("IDENTITY");
        Map<String, List<String>> indirect = indirect(e, "mart.revenue");
        assertThat(indirect.get("sales.orders.customer_id")).containsExactly("JOIN");
        assertThat(indirect.get("sales.orders.status")).containsExactly("FILTER");
        // region is both grouped on and selected: its INDIRECT entry is GROUP_BY, its DIRECT one IDENTITY
        assertThat(indirect.get("sales.customers.region")).containsExactly("GROUP_BY");
    }

    @Test
    void aColumnUsedInAJoinAndAGroupByGetsOneEntryPerSubtype() {
        Map<String, Object> e = event("COMPLETE", null, null,
                Map.of("s.a", List.of("k", "v"), "s.b", List.of("k", "w")),
                "INSERT OVERWRITE TABLE t.out SELECT a.k, max(b.w) AS w FROM s.a a JOIN s.b b ON a.k = b.k GROUP BY a.k");
        valid(e);
        assertThat(indirect(e, "t.out").get("s.a.k")).containsExactly("JOIN", "GROUP_BY");
    }

    @Test
    void aCtasCreatesItsTableWithTheColumnsItSelected() {
        Map<String, Object> e = event("COMPLETE", null, null, Map.of("raw.t", List.of("a", "b"),
                        "mart.copy", List.of("a", "b_len")),
                "CREATE TABLE mart.copy AS SELECT t.a, length(t.b) AS b_len FROM raw.t t WHERE t.a > 0");
        valid(e);
        assertThat(lifecycle(e, "mart.copy")).isEqualTo("CREATE");
        assertThat(schemaFields(dataset(e, "outputs", "mart.copy"))).containsExactly("a", "b_len");
        assertThat(indirect(e, "mart.copy").get("raw.t.a")).containsExactly("FILTER");
    }

    @Test
    void schemaFieldsCarryTheTypesOfCreateTableAndCopiesOfThemThroughCtas() {
        QueryLineage ddl = new ColumnLineageExtractor().extract("CREATE TABLE raw.t (a BIGINT, b DECIMAL(10,2))",
                "default", name -> Optional.empty());
        Map<String, String> learned = ddl.statements().get(0).learnedTypes();
        assertThat(learned).containsExactlyInAnyOrderEntriesOf(Map.of("a", "bigint", "b", "decimal(10,2)"));
        Map<String, Object> e = event("COMPLETE", null, null, Map.of("raw.t", List.of("a", "b"),
                        "mart.copy", List.of("a", "b_len")), Map.of("raw.t", learned),
                "CREATE TABLE mart.copy AS SELECT t.a, length(t.b) AS b_len FROM raw.t t");
        valid(e);
        assertThat(schemaTypes(dataset(e, "inputs", "raw.t"))).containsExactly(
                Map.entry("a", "bigint"), Map.entry("b", "decimal(10,2)"));
        // a plain copy keeps its source's type; what a function returns is not known, so no type (optional)
        assertThat(schemaTypes(dataset(e, "outputs", "mart.copy"))).containsExactly(
                Map.entry("a", "bigint"), Map.entry("b_len", "-"));
    }

    @Test
    void aFailedStepRunCarriesItsParentAndOnlyItsOwnDatasets() {
        UUID parent = UuidV7.now();
        Map<String, Object> e = event("FAIL", new RunEventBuilder.Parent(parent, "process-10"), "not a date",
                Map.of(), "INSERT OVERWRITE TABLE x.y SELECT z.a FROM x.z z");
        valid(e);
        assertThat(e.get("eventType")).isEqualTo("FAIL");
        Map<String, Object> runFacets = facets((Map<?, ?>) e.get("run"));
        assertThat(runFacets).doesNotContainKey("nominalTime");
        Map<?, ?> parentFacet = (Map<?, ?>) runFacets.get("parent");
        assertThat(((Map<?, ?>) parentFacet.get("run")).get("runId")).isEqualTo(parent.toString());
        assertThat(((Map<?, ?>) parentFacet.get("job")).get("name")).isEqualTo("process-10");
        assertThat(((Map<?, ?>) parentFacet.get("job")).get("namespace")).isEqualTo("batchyard-test");
        // no registered schema: the columns the query used are the fields
        assertThat(schemaFields(dataset(e, "inputs", "x.z"))).containsExactly("a");
        assertThat(names(e, "inputs")).containsExactly("x.z");
    }

    @Test
    void aRunWithoutQueriesIsAValidEventWithNoDatasetsAndNoSqlFacet() {
        Map<String, Object> e = event("START", null, "2024-05-01T10:15:00+02:00", Map.of());
        valid(e);
        assertThat((List<?>) e.get("inputs")).isEmpty();
        assertThat((List<?>) e.get("outputs")).isEmpty();
        assertThat(facets((Map<?, ?>) e.get("job"))).isEmpty();
        assertThat(e.get("eventTime")).isEqualTo("2024-05-01T06:30:15.123Z");
    }

    @Test
    void runIdsAreVersion7AndOrderedByTime() {
        UUID early = UuidV7.at(1_700_000_000_000L);
        UUID late = UuidV7.at(1_700_000_000_001L);
        assertThat(early.version()).isEqualTo(7);
        assertThat(early.variant()).isEqualTo(2);
        assertThat(early.toString().compareTo(late.toString())).isNegative();
        assertThat(UuidV7.now()).isNotEqualTo(UuidV7.now());
    }

    @Test
    void windowsConditionsAndSortsAreIndirectWithTheirSubtypes() {
        Map<String, Object> e = event("COMPLETE", null, null, Map.of("s.t", List.of("g", "d", "flag", "s", "v")),
                "INSERT OVERWRITE TABLE t.out SELECT row_number() OVER (PARTITION BY t.g ORDER BY t.d) AS rn, "
                        + "CASE WHEN t.flag = 1 THEN t.v END AS v FROM s.t t SORT BY t.s");
        valid(e);
        Map<String, List<String>> indirect = indirect(e, "t.out");
        assertThat(indirect.get("s.t.g")).containsExactly("WINDOW");
        assertThat(indirect.get("s.t.d")).containsExactly("WINDOW");
        assertThat(indirect.get("s.t.flag")).containsExactly("CONDITIONAL");
        assertThat(indirect.get("s.t.s")).containsExactly("SORT");
        // v is only a value of the CASE, not its condition: direct lineage only
        assertThat(indirect).doesNotContainKey("s.t.v");
    }

    // --- building from real parses ---

    private static Map<String, Object> event(String type, RunEventBuilder.Parent parent, String marking,
                                             Map<String, List<String>> schemas, String... queries) {
        return event(type, parent, marking, schemas, Map.of(), queries);
    }

    private static Map<String, Object> event(String type, RunEventBuilder.Parent parent, String marking,
                                             Map<String, List<String>> schemas,
                                             Map<String, Map<String, String>> types, String... queries) {
        List<RunEventBuilder.Statement> statements = new ArrayList<>();
        List<RunEventBuilder.Relation> relations = new ArrayList<>();
        Map<String, Long> nodes = new HashMap<>();
        for (String q : queries) {
            QueryLineage lineage = new ColumnLineageExtractor().extract(q, "default",
                    name -> Optional.ofNullable(schemas.get(name)));
            UUID queryId = UUID.randomUUID();
            for (StatementLineage s : lineage.statements()) {
                assertThat(s.error()).as(s.sql()).isNull();
                statements.add(new RunEventBuilder.Statement(s.sql(), s.database()));
                for (ColumnEdge edge : s.edges()) {
                    relations.add(relation(queryId, edge, nodes, s.index()));
                }
            }
        }
        Map<String, Object> event = RunEventBuilder.build(NAMING, new RunEventBuilder.Run(UuidV7.now(), type, AT,
                "process-11", parent, marking, NS, statements, relations, schemas, types));
        try {
            // what a backend receives: the event as JSON
            return JSON.readValue(JSON.writeValueAsString(event), new TypeReference<>() { });
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static RunEventBuilder.Relation relation(UUID query, ColumnEdge e, Map<String, Long> nodes, int statement) {
        Endpoint f = e.from();
        Endpoint t = e.to();
        long from = nodes.computeIfAbsent(statement + ":" + f.notation() + "#" + f.occurrence(), k -> (long) nodes.size());
        long to = nodes.computeIfAbsent(statement + ":" + t.notation() + "#" + t.occurrence(), k -> (long) nodes.size());
        boolean fromBase = f.kind() == Endpoint.Kind.COLUMN && !f.temp();
        boolean toBase = t.kind() == Endpoint.Kind.COLUMN && !t.temp();
        return new RunEventBuilder.Relation(query, from, fromBase ? f.table() : null, f.name(), fromBase, to,
                toBase ? t.table() : null, t.name(), toBase, f.kind() == Endpoint.Kind.FUNCTION,
                t.kind() == Endpoint.Kind.TABLE && !t.temp(), e.clauses());
    }

    // --- the spec's rules ---

    private static void valid(Map<String, Object> e) {
        assertThat(e.get("eventType")).isIn("START", "RUNNING", "COMPLETE", "ABORT", "FAIL", "OTHER");
        assertThat((String) e.get("eventTime")).matches(RFC3339);
        assertThat(OffsetDateTime.parse((String) e.get("eventTime"))).isNotNull();
        absoluteUri((String) e.get("producer"));
        assertThat(e.get("schemaURL")).isEqualTo("https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent");
        Map<?, ?> run = (Map<?, ?>) e.get("run");
        assertThat((String) run.get("runId")).matches(UUID_TEXT);
        assertThat(UUID.fromString((String) run.get("runId")).version()).isEqualTo(7);
        Map<?, ?> job = (Map<?, ?>) e.get("job");
        assertThat((String) job.get("namespace")).isNotBlank();
        assertThat((String) job.get("name")).isNotBlank();
        facetsValid(facets(run));
        facetsValid(facets(job));
        Set<String> inputFields = new java.util.HashSet<>();
        for (String side : List.of("inputs", "outputs")) {
            for (Object d : (List<?>) e.get(side)) {
                Map<?, ?> dataset = (Map<?, ?>) d;
                assertThat((String) dataset.get("namespace")).matches("hive://[^/:]+:\\d+");
                assertThat((String) dataset.get("name")).matches("[^.]+\\.[^.]+");
                facetsValid(facets(dataset));
                assertThat(facets(dataset)).containsKey("schema");
                if (side.equals("inputs")) {
                    schemaFields(dataset).forEach(f -> inputFields.add(dataset.get("name") + "." + f));
                }
            }
        }
        for (Object d : (List<?>) e.get("outputs")) {
            Map<?, ?> dataset = (Map<?, ?>) d;
            Map<?, ?> lineage = (Map<?, ?>) facets(dataset).get("columnLineage");
            if (lineage == null) {
                continue;
            }
            List<String> own = schemaFields(dataset);
            ((Map<?, ?>) lineage.get("fields")).forEach((field, value) -> {
                assertThat(own).as("output field in the schema facet").contains((String) field);
                for (Object in : (List<?>) ((Map<?, ?>) value).get("inputFields")) {
                    inputFieldValid((Map<?, ?>) in, inputFields, Set.of("IDENTITY", "TRANSFORMATION", "AGGREGATION"),
                            "DIRECT");
                }
            });
            for (Object in : (List<?>) lineage.get("dataset")) {
                inputFieldValid((Map<?, ?>) in, inputFields,
                        Set.of("JOIN", "FILTER", "GROUP_BY", "SORT", "WINDOW", "CONDITIONAL"), "INDIRECT");
            }
        }
    }

    private static void inputFieldValid(Map<?, ?> in, Set<String> inputFields, Set<String> subtypes, String type) {
        assertThat(in.get("namespace")).isEqualTo(NS);
        assertThat(inputFields).as("input field in an input's schema facet")
                .contains(in.get("name") + "." + in.get("field"));
        for (Object t : (List<?>) in.get("transformations")) {
            Map<?, ?> transformation = (Map<?, ?>) t;
            assertThat(transformation.get("type")).isEqualTo(type);
            assertThat(subtypes).contains((String) transformation.get("subtype"));
        }
    }

    private static void facetsValid(Map<?, ?> facets) {
        facets.forEach((name, f) -> {
            Map<?, ?> facet = (Map<?, ?>) f;
            absoluteUri((String) facet.get("_producer"));
            String schema = FACET_SCHEMAS.get(name);
            assertThat(schema).as("a facet of the spec: " + name).isNotNull();
            assertThat((String) facet.get("_schemaURL")).matches(
                    "https://openlineage\\.io/spec/facets/\\d+-\\d+-\\d+/" + schema + "\\.json#/\\$defs/" + schema);
        });
    }

    private static void absoluteUri(String value) {
        assertThat(URI.create(value).isAbsolute()).as(value).isTrue();
    }

    // --- reading the event ---

    @SuppressWarnings("unchecked")
    private static Map<String, Object> facets(Map<?, ?> owner) {
        return (Map<String, Object>) owner.get("facets");
    }

    private static List<String> names(Map<String, Object> e, String side) {
        return ((List<?>) e.get(side)).stream().map(d -> (String) ((Map<?, ?>) d).get("name")).toList();
    }

    private static Map<?, ?> dataset(Map<String, Object> e, String side, String name) {
        return ((List<?>) e.get(side)).stream().map(d -> (Map<?, ?>) d).filter(d -> name.equals(d.get("name")))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in " + side));
    }

    private static List<String> schemaFields(Map<?, ?> dataset) {
        return ((List<?>) ((Map<?, ?>) facets(dataset).get("schema")).get("fields")).stream()
                .map(f -> (String) ((Map<?, ?>) f).get("name")).toList();
    }

    private static List<Map.Entry<String, String>> schemaTypes(Map<?, ?> dataset) {
        return ((List<?>) ((Map<?, ?>) facets(dataset).get("schema")).get("fields")).stream()
                .map(f -> Map.entry((String) ((Map<?, ?>) f).get("name"),
                        String.valueOf(((Map<?, ?>) f).containsKey("type") ? ((Map<?, ?>) f).get("type") : "-")))
                .toList();
    }

    private static String lifecycle(Map<String, Object> e, String output) {
        return (String) ((Map<?, ?>) facets(dataset(e, "outputs", output)).get("lifecycleStateChange"))
                .get("lifecycleStateChange");
    }

    private static String subtype(Map<String, Object> e, String output, String field, String table, String column) {
        Map<?, ?> lineage = (Map<?, ?>) facets(dataset(e, "outputs", output)).get("columnLineage");
        List<?> inputs = (List<?>) ((Map<?, ?>) ((Map<?, ?>) lineage.get("fields")).get(field)).get("inputFields");
        return inputs.stream().map(i -> (Map<?, ?>) i)
                .filter(i -> table.equals(i.get("name")) && column.equals(i.get("field")))
                .map(i -> (String) ((Map<?, ?>) ((List<?>) i.get("transformations")).get(0)).get("subtype"))
                .findFirst().orElseThrow(() -> new AssertionError(table + "." + column + " not behind " + field));
    }

    /** table.column of each INDIRECT entry of the output -> its subtypes in order. */
    private static Map<String, List<String>> indirect(Map<String, Object> e, String output) {
        Map<?, ?> lineage = (Map<?, ?>) facets(dataset(e, "outputs", output)).get("columnLineage");
        Map<String, List<String>> subtypes = new HashMap<>();
        for (Object o : (List<?>) lineage.get("dataset")) {
            Map<?, ?> in = (Map<?, ?>) o;
            subtypes.put(in.get("name") + "." + in.get("field"), ((List<?>) in.get("transformations")).stream()
                    .map(t -> (String) ((Map<?, ?>) t).get("subtype")).toList());
        }
        return subtypes;
    }
}
