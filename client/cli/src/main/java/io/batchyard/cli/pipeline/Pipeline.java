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
                          List<Process> steps, String trigger, Deadlines deadlines) {

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

    /** The trigger policies a file may name; {@code none} is written as no trigger at all. */
    public static final List<String> TRIGGERS = List.of("on-batch", "all-enqueuers", "none");

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
