package io.batchyard.lineage.openlineage;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Builds an OpenLineage RunEvent (spec 2-0-2) for one run: the base tables its queries read and wrote, and for each
 * written column the base columns it came from ({@code columnLineage} dataset facet). Temporary tables, functions and
 * constants are walked through, not exported: OpenLineage datasets are real tables.
 */
public final class RunEventBuilder {

    static final String PRODUCER = "https://github.com/batchyard/batchyard/tree/main/lineage-service";
    static final String RUN_EVENT_SCHEMA = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent";
    static final String COLUMN_LINEAGE_SCHEMA =
            "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet";
    public static final String DATASET_NAMESPACE = "hive";
    public static final String JOB_NAMESPACE = "batchyard";

    /**
     * One stored relation with both ends; {@code table} is null for function, constant and table nodes.
     * {@code toBaseTable}: an indirect relation into a real table (its {@code toName} is the table).
     */
    public record Relation(UUID queryId, long from, String fromTable, String fromName, boolean fromBaseColumn,
                           long to, String toTable, String toName, boolean toBaseColumn, boolean fromIsFunction,
                           boolean toBaseTable) {
    }

    private record Field(String table, String column) implements Comparable<Field> {
        @Override
        public int compareTo(Field o) {
            int c = table.compareTo(o.table);
            return c != 0 ? c : column.compareTo(o.column);
        }
    }

    private RunEventBuilder() {
    }

    /** Stable run id: OpenLineage wants a UUID, Batchyard runs have numeric instance exec ids. */
    public static UUID runId(long instanceExecId) {
        return UUID.nameUUIDFromBytes(("batchyard-run-" + instanceExecId).getBytes(StandardCharsets.UTF_8));
    }

    public static Map<String, Object> build(long instanceExecId, String state, OffsetDateTime eventTime, long processId,
                                            List<Relation> relations) {
        Map<Long, List<Relation>> into = new HashMap<>();
        Set<String> inputs = new TreeSet<>();
        for (Relation r : relations) {
            into.computeIfAbsent(r.to(), k -> new ArrayList<>()).add(r);
            if (r.fromBaseColumn()) {
                inputs.add(r.fromTable());
            }
        }
        // written base column -> its base sources, and whether a function sits on the way
        Map<Field, Map<Field, Boolean>> lineage = new TreeMap<>();
        for (Relation r : relations) {
            if (r.toBaseColumn()) {
                Map<Field, Boolean> sources = lineage.computeIfAbsent(new Field(r.toTable(), r.toName()),
                        k -> new TreeMap<>());
                walkBack(r, into, sources);
            }
        }
        // JOIN/WHERE/GROUP BY/HAVING columns decide the rows of the whole output: the facet's dataset-level list.
        Map<String, Set<Field>> indirect = new TreeMap<>();
        for (Relation r : relations) {
            if (r.toBaseTable() && r.fromBaseColumn()) {
                indirect.computeIfAbsent(r.toName(), k -> new TreeSet<>()).add(new Field(r.fromTable(), r.fromName()));
            }
        }
        Map<String, Map<String, Object>> outputs = new TreeMap<>();
        indirect.keySet().forEach(t -> outputs.computeIfAbsent(t, k -> new TreeMap<>()));
        lineage.forEach((target, sources) -> {
            Map<String, Object> fields = outputs.computeIfAbsent(target.table(), t -> new TreeMap<>());
            List<Map<String, Object>> inputFields = new ArrayList<>();
            sources.forEach((source, transformed) -> inputFields.add(Map.of(
                    "namespace", DATASET_NAMESPACE, "name", source.table(), "field", source.column(),
                    "transformations", List.of(Map.of("type", "DIRECT",
                            "subtype", transformed ? "TRANSFORMATION" : "IDENTITY")))));
            fields.put(target.column(), Map.of("inputFields", inputFields));
        });
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("eventType", eventType(state));
        event.put("eventTime", (eventTime == null ? OffsetDateTime.now() : eventTime).toString());
        event.put("producer", PRODUCER);
        event.put("schemaURL", RUN_EVENT_SCHEMA);
        event.put("run", Map.of("runId", runId(instanceExecId).toString(), "facets", Map.of()));
        event.put("job", Map.of("namespace", JOB_NAMESPACE, "name", "process-" + processId, "facets", Map.of()));
        event.put("inputs", inputs.stream().map(t -> Map.of("namespace", DATASET_NAMESPACE, "name", t)).toList());
        event.put("outputs", outputs.entrySet().stream().map(o -> Map.of("namespace", DATASET_NAMESPACE,
                "name", o.getKey(), "facets", Map.of("columnLineage", Map.of(
                        "_producer", PRODUCER, "_schemaURL", COLUMN_LINEAGE_SCHEMA, "fields", o.getValue(),
                        "dataset", indirect.getOrDefault(o.getKey(), Set.of()).stream()
                                .map(f -> Map.of("namespace", DATASET_NAMESPACE, "name", f.table(), "field", f.column(),
                                        "transformations", List.of(Map.of("type", "INDIRECT"))))
                                .toList()))))
                .toList());
        return event;
    }

    /** Back from a written column through temp columns and functions to base columns. */
    private static void walkBack(Relation start, Map<Long, List<Relation>> into, Map<Field, Boolean> sources) {
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {start, false});
        Set<Long> visited = new HashSet<>();
        while (!stack.isEmpty()) {
            Object[] item = stack.pop();
            Relation r = (Relation) item[0];
            boolean transformed = (Boolean) item[1] || r.fromIsFunction();
            if (r.fromBaseColumn()) {
                sources.merge(new Field(r.fromTable(), r.fromName()), transformed, Boolean::logicalOr);
                continue;
            }
            if (visited.add(r.from())) {
                for (Relation up : into.getOrDefault(r.from(), List.of())) {
                    stack.push(new Object[] {up, transformed});
                }
            }
        }
    }

    private static String eventType(String state) {
        if (state == null) {
            return "OTHER";
        }
        return switch (state) {
            case "RUNNING" -> "START";
            case "SUCCESS" -> "COMPLETE";
            case "FAILED" -> "FAIL";
            default -> "OTHER";
        };
    }
}
