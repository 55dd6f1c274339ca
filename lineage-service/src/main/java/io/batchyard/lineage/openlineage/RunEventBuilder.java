package io.batchyard.lineage.openlineage;

import io.batchyard.lineage.column.IndirectClause;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds an OpenLineage 2-0-2 RunEvent for one run: the base tables its queries read and wrote with their columns
 * ({@code schema}), for each written column the base columns it came from ({@code columnLineage}), how each output was
 * written ({@code lifecycleStateChange}), the statements ({@code sql}), the batch marking as {@code nominalTime} and,
 * for a step, its parent run. Temporary tables, functions and constants are walked through, not exported: OpenLineage
 * datasets are real tables.
 */
public final class RunEventBuilder {

    static final String RUN_EVENT_SCHEMA = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent";
    static final String COLUMN_LINEAGE_SCHEMA =
            "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet";
    static final String SCHEMA_SCHEMA =
            "https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet";
    static final String LIFECYCLE_SCHEMA = "https://openlineage.io/spec/facets/1-0-1/"
            + "LifecycleStateChangeDatasetFacet.json#/$defs/LifecycleStateChangeDatasetFacet";
    static final String SQL_SCHEMA = "https://openlineage.io/spec/facets/1-1-0/SQLJobFacet.json#/$defs/SQLJobFacet";
    static final String NOMINAL_TIME_SCHEMA =
            "https://openlineage.io/spec/facets/1-0-1/NominalTimeRunFacet.json#/$defs/NominalTimeRunFacet";
    static final String PARENT_SCHEMA =
            "https://openlineage.io/spec/facets/1-1-0/ParentRunFacet.json#/$defs/ParentRunFacet";

    /** Functions that fold many rows into one: a column through them is AGGREGATION, not TRANSFORMATION. */
    private static final Set<String> AGGREGATES = Set.of("sum", "count", "avg", "min", "max", "collect_set",
            "collect_list", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "percentile",
            "percentile_approx", "corr", "covar_pop", "covar_samp", "histogram_numeric", "count_distinct", "approx_count_distinct", "array_agg", "string_agg",
            "listagg", "median");

    private static final String NAME = "(`[^`]+`(?:\\.`[^`]+`)?|[A-Za-z0-9_$.{}:]+(?:`[^`]+`)?)";
    private static final Pattern CTAS = Pattern.compile("^\\s*CREATE\\s+(?:TEMPORARY\\s+)?(?:EXTERNAL\\s+)?TABLE\\s+"
            + "(?:IF\\s+NOT\\s+EXISTS\\s+)?" + NAME + "[\\s\\S]*?\\bAS\\s*\\(?\\s*(?:SELECT|WITH|FROM)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern OVERWRITE = Pattern.compile("\\bINSERT\\s+OVERWRITE\\s+TABLE\\s+" + NAME,
            Pattern.CASE_INSENSITIVE);

    /**
     * One stored relation with both ends; {@code fromTable}/{@code toTable} are null for function, constant and
     * table nodes. {@code toBaseTable}: an indirect relation into a real table (its {@code toName} is the table);
     * {@code subtypes}: the clauses the parse read its column in (empty if unknown).
     */
    public record Relation(UUID queryId, long from, String fromTable, String fromName, boolean fromBaseColumn,
                           long to, String toTable, String toName, boolean toBaseColumn, boolean fromIsFunction,
                           boolean toBaseTable, Set<IndirectClause> subtypes) {
    }

    /** A statement as it ran, with the database its unqualified names are in. */
    public record Statement(String text, String defaultDatabase) {
    }

    public record Parent(UUID runId, String jobName) {
    }

    /** Everything one event says. {@code parent} null for a parent run; {@code batchMarking} may be null. */
    public record Run(UUID runId, String eventType, OffsetDateTime eventTime, String jobName, Parent parent,
                      String batchMarking, String datasetNamespace, List<Statement> statements,
                      List<Relation> relations, Map<String, List<String>> schemas,
                      Map<String, Map<String, String>> types) {
    }

    public record Naming(String jobNamespace, String producer) {
    }

    private enum Direct { IDENTITY, TRANSFORMATION, AGGREGATION }

    private record Field(String table, String column) implements Comparable<Field> {
        @Override
        public int compareTo(Field o) {
            int c = table.compareTo(o.table);
            return c != 0 ? c : column.compareTo(o.column);
        }
    }

    private RunEventBuilder() {
    }

    public static String jobName(long processId) {
        return "process-" + processId;
    }

    public static Map<String, Object> build(Naming naming, Run run) {
        String producer = naming.producer();
        String ns = run.datasetNamespace();
        Map<Long, List<Relation>> into = new HashMap<>();
        Set<String> inputs = new TreeSet<>();
        Map<String, Set<String>> seen = new HashMap<>();
        for (Relation r : run.relations()) {
            into.computeIfAbsent(r.to(), k -> new ArrayList<>()).add(r);
            if (r.fromBaseColumn()) {
                inputs.add(r.fromTable());
                seen.computeIfAbsent(r.fromTable(), k -> new LinkedHashSet<>()).add(r.fromName());
            }
            if (r.toBaseColumn()) {
                seen.computeIfAbsent(r.toTable(), k -> new LinkedHashSet<>()).add(r.toName());
            }
        }
        // written base column -> its base sources, and the strongest change on the way
        Map<Field, Map<Field, Direct>> lineage = new TreeMap<>();
        for (Relation r : run.relations()) {
            if (r.toBaseColumn()) {
                walkBack(r, into, lineage.computeIfAbsent(new Field(r.toTable(), r.toName()), k -> new TreeMap<>()));
            }
        }
        // JOIN/WHERE/GROUP BY/... columns decide the rows of the whole output: the facet's dataset-level list, with
        // the clauses each was read in (over all the run's queries).
        Map<String, Map<Field, Set<IndirectClause>>> indirect = new TreeMap<>();
        for (Relation r : run.relations()) {
            if (r.toBaseTable() && r.fromBaseColumn()) {
                indirect.computeIfAbsent(r.toName(), k -> new TreeMap<>())
                        .computeIfAbsent(new Field(r.fromTable(), r.fromName()),
                                k -> EnumSet.noneOf(IndirectClause.class))
                        .addAll(r.subtypes());
            }
        }
        Map<String, String> lifecycle = lifecycle(run.statements());
        Set<String> outputs = new TreeSet<>(indirect.keySet());
        lineage.keySet().forEach(f -> outputs.add(f.table()));
        outputs.addAll(lifecycle.keySet());
        List<String> texts = run.statements().stream().map(Statement::text).toList();

        Map<String, Object> event = new LinkedHashMap<>();
        event.put("eventType", run.eventType());
        event.put("eventTime", rfc3339(run.eventTime()));
        event.put("producer", producer);
        event.put("schemaURL", RUN_EVENT_SCHEMA);
        event.put("run", Map.of("runId", run.runId().toString(), "facets", runFacets(naming, run)));
        Map<String, Object> jobFacets = new LinkedHashMap<>();
        if (!texts.isEmpty()) {
            jobFacets.put("sql", facet(producer, SQL_SCHEMA, Map.of("query", String.join(";\n", texts))));
        }
        event.put("job", Map.of("namespace", naming.jobNamespace(), "name", run.jobName(), "facets", jobFacets));
        Map<Field, String> types = types(run.types(), lineage);
        event.put("inputs", inputs.stream().map(t -> dataset(ns, t, Map.of("schema",
                schema(producer, t, run.schemas().get(t), seen.get(t), types)))).toList());
        event.put("outputs", outputs.stream().map(t -> {
            Map<String, Object> facets = new LinkedHashMap<>();
            facets.put("schema", schema(producer, t, run.schemas().get(t), seen.get(t), types));
            if (lifecycle.containsKey(t)) {
                facets.put("lifecycleStateChange", facet(producer, LIFECYCLE_SCHEMA,
                        Map.of("lifecycleStateChange", lifecycle.get(t))));
            }
            Map<String, Object> fields = new TreeMap<>();
            lineage.forEach((target, sources) -> {
                if (target.table().equals(t)) {
                    fields.put(target.column(), Map.of("inputFields", sources.entrySet().stream()
                            .map(s -> inputField(ns, s.getKey(), List.of(Map.of("type", "DIRECT",
                                    "subtype", s.getValue().name())))).toList()));
                }
            });
            List<Map<String, Object>> rows = indirect.getOrDefault(t, Map.of()).entrySet().stream()
                    .map(f -> inputField(ns, f.getKey(), indirectTransformations(f.getValue()))).toList();
            if (!fields.isEmpty() || !rows.isEmpty()) {
                facets.put("columnLineage", facet(producer, COLUMN_LINEAGE_SCHEMA, Map.of("fields", fields,
                        "dataset", rows)));
            }
            return dataset(ns, t, facets);
        }).toList());
        return event;
    }

    private static Map<String, Object> runFacets(Naming naming, Run run) {
        Map<String, Object> facets = new LinkedHashMap<>();
        nominalTime(run.batchMarking()).ifPresent(t -> facets.put("nominalTime",
                facet(naming.producer(), NOMINAL_TIME_SCHEMA, Map.of("nominalStartTime", rfc3339(t)))));
        if (run.parent() != null) {
            facets.put("parent", facet(naming.producer(), PARENT_SCHEMA, Map.of(
                    "run", Map.of("runId", run.parent().runId().toString()),
                    "job", Map.of("namespace", naming.jobNamespace(), "name", run.parent().jobName()))));
        }
        return facets;
    }

    /** One INDIRECT entry per clause the column was read in; one without subtype where none is known. */
    private static List<Map<String, Object>> indirectTransformations(Set<IndirectClause> subtypes) {
        if (subtypes.isEmpty()) {
            return List.of(Map.of("type", "INDIRECT"));
        }
        return subtypes.stream().<Map<String, Object>>map(s -> Map.of("type", "INDIRECT", "subtype", s.name()))
                .toList();
    }

    private static Map<String, Object> inputField(String ns, Field f, List<Map<String, Object>> transformations) {
        return Map.of("namespace", ns, "name", f.table(), "field", f.column(), "transformations", transformations);
    }

    private static Map<String, Object> dataset(String ns, String table, Map<String, Object> facets) {
        return Map.of("namespace", ns, "name", table, "facets", facets);
    }

    /**
     * Registered columns in their order, then any the queries used that the registration does not list; each with its
     * type where one is known.
     */
    private static Map<String, Object> schema(String producer, String table, List<String> registered, Set<String> used,
                                              Map<Field, String> types) {
        Set<String> names = new LinkedHashSet<>(registered == null ? List.of() : registered);
        if (used != null) {
            names.addAll(used);
        }
        return facet(producer, SCHEMA_SCHEMA, Map.of("fields", names.stream().map(n -> {
            String type = types.get(new Field(table, n));
            return type == null ? Map.of("name", n) : Map.of("name", n, "type", type);
        }).toList()));
    }

    /**
     * Column types: the registered ones (PUT /tables, CREATE TABLE column definitions); for a written column without
     * one (a CTAS table, or a registration without types) the type of the single column it is a plain copy of. Any
     * other column has no type: the parser cannot tell what a function returns.
     */
    private static Map<Field, String> types(Map<String, Map<String, String>> registered,
                                            Map<Field, Map<Field, Direct>> lineage) {
        Map<Field, String> types = new HashMap<>();
        if (registered != null) {
            registered.forEach((table, columns) -> columns.forEach((c, t) -> types.put(new Field(table, c), t)));
        }
        // Copies of copies (a CTAS over a CTAS) resolve in as many rounds as the chain is long.
        for (int round = 0; round < lineage.size(); round++) {
            boolean more = false;
            for (Map.Entry<Field, Map<Field, Direct>> e : lineage.entrySet()) {
                Map<Field, Direct> sources = e.getValue();
                if (types.containsKey(e.getKey()) || sources.size() != 1) {
                    continue;
                }
                Map.Entry<Field, Direct> only = sources.entrySet().iterator().next();
                String type = types.get(only.getKey());
                if (only.getValue() == Direct.IDENTITY && type != null) {
                    types.put(e.getKey(), type);
                    more = true;
                }
            }
            if (!more) {
                break;
            }
        }
        return types;
    }

    private static Map<String, Object> facet(String producer, String schemaUrl, Map<String, Object> body) {
        Map<String, Object> facet = new LinkedHashMap<>();
        facet.put("_producer", producer);
        facet.put("_schemaURL", schemaUrl);
        facet.putAll(body);
        return facet;
    }

    /** CREATE for a table a CTAS made, OVERWRITE for one INSERT OVERWRITE replaced (the later statement wins). */
    static Map<String, String> lifecycle(List<Statement> statements) {
        Map<String, String> changes = new TreeMap<>();
        for (Statement s : statements) {
            Matcher ctas = CTAS.matcher(s.text());
            if (ctas.find()) {
                changes.put(qualify(ctas.group(1), s.defaultDatabase()), "CREATE");
            }
            Matcher overwrite = OVERWRITE.matcher(s.text());
            while (overwrite.find()) {
                changes.put(qualify(overwrite.group(1), s.defaultDatabase()), "OVERWRITE");
            }
        }
        return changes;
    }

    private static String qualify(String name, String database) {
        String plain = name.replace("`", "").toLowerCase(Locale.ROOT);
        return plain.contains(".") ? plain : database.toLowerCase(Locale.ROOT) + "." + plain;
    }

    /** A batch marking that is a date or a timestamp is the run's nominal start; other markings say nothing. */
    static Optional<OffsetDateTime> nominalTime(String marking) {
        if (marking == null || marking.isBlank()) {
            return Optional.empty();
        }
        String m = marking.trim();
        try {
            return Optional.of(OffsetDateTime.parse(m));
        } catch (DateTimeParseException notOffset) {
            try {
                return Optional.of(LocalDateTime.parse(m).atOffset(ZoneOffset.UTC));
            } catch (DateTimeParseException notLocal) {
                try {
                    return Optional.of(LocalDate.parse(m).atStartOfDay().atOffset(ZoneOffset.UTC));
                } catch (DateTimeParseException notDate) {
                    return Optional.empty();
                }
            }
        }
    }

    /** RFC 3339 with an explicit offset and at most millisecond precision. */
    static String rfc3339(OffsetDateTime time) {
        return time.truncatedTo(ChronoUnit.MILLIS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    /** Back from a written column through temp columns and functions to base columns. */
    private static void walkBack(Relation start, Map<Long, List<Relation>> into, Map<Field, Direct> sources) {
        record Step(Relation relation, Direct change) {
        }
        Deque<Step> stack = new ArrayDeque<>();
        stack.push(new Step(start, Direct.IDENTITY));
        Set<Long> visited = new HashSet<>();
        while (!stack.isEmpty()) {
            Step step = stack.pop();
            Relation r = step.relation();
            Direct change = step.change();
            if (r.fromIsFunction()) {
                Direct here = AGGREGATES.contains(r.fromName().toLowerCase(Locale.ROOT)) ? Direct.AGGREGATION
                        : Direct.TRANSFORMATION;
                change = here.compareTo(change) > 0 ? here : change;
            }
            if (r.fromBaseColumn()) {
                sources.merge(new Field(r.fromTable(), r.fromName()), change, (a, b) -> a.compareTo(b) >= 0 ? a : b);
                continue;
            }
            if (visited.add(r.from())) {
                for (Relation up : into.getOrDefault(r.from(), List.of())) {
                    stack.push(new Step(up, change));
                }
            }
        }
    }
}
