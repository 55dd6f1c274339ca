package io.batchyard.cli.pipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Comparator;
import java.util.List;

/**
 * An application as a pipeline file holds it: everything named, nothing numbered, so that one file applies to any
 * installation, an empty one included. Lists are kept in one order ({@link #sorted}), so two exports of one state are
 * the same bytes. pipeline.schema.json documents the format; {@link PipelineFiles} reads and writes it.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonPropertyOrder({"apiVersion", "application", "processes"})
public record Pipeline(String apiVersion, Application application, List<Process> processes) {

    /** The format this version of the CLI reads and writes. */
    public static final String API_VERSION = "batchyard/v1";

    /**
     * {@code permissions} null: not managed by the file (an export by someone who may not read them leaves them out,
     * and apply then leaves them as they are).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"name", "description", "owner", "permissions"})
    public record Application(String name, String description, String owner, Permissions permissions) {
    }

    /** Permission types 0 none, 4 read, 6 read and write, 7 read, write and execute. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"ownerUser", "ownerGroup", "owner", "group", "others"})
    public record Permissions(String ownerUser, String ownerGroup, int owner, int group, int others) {
    }

    /**
     * A parent process (with {@code steps}) or a step (without). {@code next} names processes of the same tree: a
     * parent names its first step(s), a step the following one(s) or its parent. {@code enqueuing} names parents
     * whose batches this process consumes. {@code trigger}, a parent's only, is its trigger policy in
     * execution-service ({@code on-batch}, {@code all-enqueuers}; null for {@code none}, the default).
     * {@code deadlines}, a parent's only, are its data deadlines in the registry (null: none).
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"name", "description", "type", "workflowType", "canRecover", "batchCutPattern", "trigger",
            "deadlines", "enqueuing", "next", "properties", "steps"})
    public record Process(String name, String description, int type, int workflowType, boolean canRecover,
                          String batchCutPattern, List<Ref> enqueuing, List<String> next, List<Property> properties,
                          List<Process> steps, Trigger trigger, Deadlines deadlines) {

        /** The same process without links to other processes (as first created, before they exist). */
        public Process unlinked() {
            return new Process(name, description, type, workflowType, canRecover, batchCutPattern, List.of(), List.of(),
                    properties, steps, trigger, deadlines);
        }
    }

    /**
     * A parent's data deadlines as the registry keeps them ({@code PUT /processes/{id}/deadlines}): buckets of
     * {@code grain} (day when absent) in {@code zone}, optionally ended by a {@code cron} fire, and ISO-8601 durations.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"grain", "cron", "zone", "startBy", "finishBy", "maxRuntime"})
    public record Deadlines(String grain, String cron, String zone, String startBy, String finishBy,
                            String maxRuntime) {

        /** As the registry stores them (grain in lower case, day by default; durations in canonical form). */
        public Deadlines normalised() {
            return new Deadlines(grain == null ? "day" : grain.toLowerCase(java.util.Locale.ROOT), cron, zone,
                    duration(startBy), duration(finishBy), duration(maxRuntime));
        }

        /** How a plan shows them: {@code day Europe/Berlin finishBy=PT6H}. */
        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(grain == null ? "day" : grain);
            text.append(cron == null ? "" : " cron '" + cron + "'").append(' ').append(zone);
            text.append(startBy == null ? "" : " startBy=" + startBy);
            text.append(finishBy == null ? "" : " finishBy=" + finishBy);
            return text.append(maxRuntime == null ? "" : " maxRuntime=" + maxRuntime).toString();
        }

        private static String duration(String iso) {
            try {
                return iso == null ? null : java.time.Duration.parse(iso).toString();
            } catch (java.time.format.DateTimeParseException e) {
                return iso;
            }
        }
    }

    /**
     * The trigger policies a file may name; {@code none} is written as no trigger at all. {@code on-batch} and
     * {@code all-enqueuers} are the older names of {@code each} and {@code all}: a file may still use them.
     */
    public static final List<String> TRIGGERS = List.of("each", "all", "any-of", "n-of", "all-with-timeout", "none",
            "on-batch", "all-enqueuers");

    /** Bucket grains of a trigger ({@code upstream}: the input's own bucket, the default). */
    public static final List<String> TRIGGER_GRAINS = List.of("upstream", "hour", "day", "week", "month");

    /**
     * A parent's trigger settings in execution-service ({@code PUT /processes/{pid}/trigger}). A file writes just the
     * policy when nothing else is set ({@code trigger: each}), else a mapping. {@code inputs} names enqueuing
     * processes of the parent's steps as {@code enqueuing} does (absent: all of them); {@code timeout} is an ISO-8601
     * duration; {@code coalesce} absent means true, {@code grain} absent upstream, {@code zone} absent the runner's.
     */
    public record Trigger(String policy, List<Ref> inputs, Integer n, String timeout, String grain, String zone,
                          Boolean coalesce) {

        public static Trigger of(String policy) {
            return new Trigger(policy, null, null, null, null, null, null);
        }

        /** Reads what {@link #written()} wrote (a saved plan holds its triggers so): a policy, or a mapping. */
        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        public static Trigger read(com.fasterxml.jackson.databind.JsonNode node) {
            if (node == null || node.isNull()) {
                return null;
            }
            if (!node.isObject()) {
                return of(node.asText());
            }
            List<Ref> inputs = null;
            if (node.path("inputs").isArray()) {
                inputs = new java.util.ArrayList<>();
                for (com.fasterxml.jackson.databind.JsonNode r : node.get("inputs")) {
                    inputs.add(new Ref(text(r, "application"), text(r, "process")));
                }
            }
            return new Trigger(text(node, "policy"), inputs, node.hasNonNull("n") ? node.get("n").asInt() : null,
                    text(node, "timeout"), text(node, "grain"), text(node, "zone"),
                    node.hasNonNull("coalesce") ? node.get("coalesce").asBoolean() : null);
        }

        private static String text(com.fasterxml.jackson.databind.JsonNode node, String field) {
            return node.hasNonNull(field) ? node.get(field).asText() : null;
        }

        /**
         * As execution-service keeps it: the policy's current name, defaults left out, inputs sorted, the timeout in
         * canonical form; null for none.
         */
        public Trigger normalised() {
            String name = switch (policy == null ? "none" : policy) {
                case "on-batch" -> "each";
                case "all-enqueuers" -> "all";
                default -> policy;
            };
            if (name == null || "none".equals(name)) {
                return null;
            }
            List<Ref> sorted = inputs == null || inputs.isEmpty() ? null
                    : inputs.stream().sorted(Comparator.comparing(Ref::toString)).toList();
            String canonicalTimeout;
            try {
                canonicalTimeout = timeout == null ? null : java.time.Duration.parse(timeout).toString();
            } catch (java.time.format.DateTimeParseException e) {
                canonicalTimeout = timeout;
            }
            return new Trigger(name, sorted, n, canonicalTimeout, "upstream".equals(grain) ? null : grain, zone,
                    Boolean.TRUE.equals(coalesce) ? null : coalesce);
        }

        /** What a file holds: the bare policy, or a mapping of the fields that are set. */
        @com.fasterxml.jackson.annotation.JsonValue
        public Object written() {
            if (inputs == null && n == null && timeout == null && grain == null && zone == null && coalesce == null) {
                return policy;
            }
            java.util.Map<String, Object> fields = new java.util.LinkedHashMap<>();
            fields.put("policy", policy);
            if (inputs != null) {
                fields.put("inputs", inputs);
            }
            putIfSet(fields, "n", n);
            putIfSet(fields, "timeout", timeout);
            putIfSet(fields, "grain", grain);
            putIfSet(fields, "zone", zone);
            putIfSet(fields, "coalesce", coalesce);
            return fields;
        }

        private static void putIfSet(java.util.Map<String, Object> fields, String name, Object value) {
            if (value != null) {
                fields.put(name, value);
            }
        }

        /** How a plan shows it: {@code n-of n=2 inputs=[a, b]}. */
        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(policy);
            text.append(inputs == null ? "" : " inputs=" + inputs).append(n == null ? "" : " n=" + n);
            text.append(timeout == null ? "" : " timeout=" + timeout).append(grain == null ? "" : " grain=" + grain);
            text.append(zone == null ? "" : " zone=" + zone);
            return text.append(coalesce == null ? "" : " coalesce=" + coalesce).toString();
        }
    }

    /** A parent process by name; {@code application} absent for one of the same application. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"application", "process"})
    public record Ref(String application, String process) {
        @Override
        public String toString() {
            return application == null ? process : application + "/" + process;
        }
    }

    /**
     * A property. A secret (config groups {@code credential} and {@code security}) never has its value in a file:
     * {@code secret: true} stands for the value set in the registry, which apply leaves untouched.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"group", "key", "value", "description", "secret"})
    public record Property(String group, String key, String value, String description, Boolean secret) {

        /** Not {@code isSecret()}: Jackson would take that for the field and write {@code secret: false} everywhere. */
        public boolean holdsSecret() {
            return Boolean.TRUE.equals(secret);
        }

        /** Whether values of the group are secrets in the registry (its rule, PropertyRow.sensitive). */
        public static boolean secretGroup(String group) {
            return "credential".equalsIgnoreCase(group) || "security".equalsIgnoreCase(group);
        }
    }

    /**
     * The same pipeline with every list in the file's order: processes, steps and references by name, properties by
     * key.
     */
    public Pipeline sorted() {
        return new Pipeline(apiVersion, application, processes == null ? List.of()
                : processes.stream().map(Pipeline::sorted).sorted(Comparator.comparing(Process::name)).toList());
    }

    private static Process sorted(Process p) {
        return new Process(p.name(), p.description(), p.type(), p.workflowType(), p.canRecover(), p.batchCutPattern(),
                orEmpty(p.enqueuing()).stream().sorted(Comparator.comparing(Ref::toString)).toList(),
                orEmpty(p.next()).stream().sorted().toList(),
                orEmpty(p.properties()).stream().sorted(Comparator.comparing(Property::key)).toList(),
                orEmpty(p.steps()).stream().map(Pipeline::sorted).sorted(Comparator.comparing(Process::name)).toList(),
                p.trigger(), p.deadlines());
    }

    static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
