package io.batchyard.cli.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The rules of a pipeline file (pipeline.schema.json says the same for editors), checked on the parsed YAML so that
 * each broken rule is named by its path in the file ({@code processes[1].steps[0].next[0]}), before anything is
 * planned, and every broken rule is reported at once. Limits are the registry's (name 45 characters, …), so that a
 * file that passes is not refused for its shape half-way through an apply.
 */
public final class PipelineRules {

    /** A file broke rules: one line per broken rule, {@code file: path: reason}. */
    public static final class Invalid extends IllegalArgumentException {
        private final List<String> errors;

        public Invalid(List<String> errors) {
            super("invalid pipeline file:\n  " + String.join("\n  ", errors));
            this.errors = List.copyOf(errors);
        }

        public List<String> errors() {
            return errors;
        }
    }

    private static final Set<String> TOP = Set.of("apiVersion", "application", "processes");
    private static final Set<String> APPLICATION = Set.of("name", "description", "owner", "permissions");
    private static final Set<String> PERMISSIONS = Set.of("ownerUser", "ownerGroup", "owner", "group", "others");
    private static final Set<String> PROCESS = Set.of("name", "description", "type", "workflowType", "canRecover",
            "batchCutPattern", "enqueuing", "next", "properties", "steps", "trigger", "deadlines");
    private static final Set<String> DEADLINES = Set.of("grain", "cron", "zone", "startBy", "finishBy", "maxRuntime");
    private static final Set<String> TRIGGER = Set.of("policy", "inputs", "n", "timeout", "grain", "zone",
            "coalesce");
    private static final List<String> GRAINS = List.of("hour", "day", "week", "month");
    private static final Set<String> REF = Set.of("application", "process");
    private static final Set<String> PROPERTY = Set.of("group", "key", "value", "description", "secret");

    private final List<String> errors = new ArrayList<>();

    private PipelineRules() {
    }

    /** Every rule {@code file} breaks, as {@code path: reason}; empty when it is a pipeline. */
    public static List<String> check(JsonNode file) {
        PipelineRules rules = new PipelineRules();
        rules.file(file);
        return rules.errors;
    }

    private void file(JsonNode file) {
        if (file == null || !file.isObject()) {
            errors.add("(file): must be a mapping with apiVersion, application and processes");
            return;
        }
        known(file, "", TOP);
        if (!Pipeline.API_VERSION.equals(file.path("apiVersion").asText(null))) {
            errors.add("apiVersion: must be " + Pipeline.API_VERSION);
        }
        JsonNode app = file.get("application");
        if (app == null || !app.isObject()) {
            errors.add("application: required, a mapping with name, description and owner");
        } else {
            known(app, "application.", APPLICATION);
            text(app, "application.", "name", 45, true);
            text(app, "application.", "description", 256, true);
            text(app, "application.", "owner", 45, true);
            JsonNode p = app.get("permissions");
            if (p != null && !p.isNull()) {
                if (!p.isObject()) {
                    errors.add("application.permissions: must be a mapping");
                } else {
                    known(p, "application.permissions.", PERMISSIONS);
                    text(p, "application.permissions.", "ownerUser", 255, false);
                    text(p, "application.permissions.", "ownerGroup", 255, false);
                    for (String type : List.of("owner", "group", "others")) {
                        JsonNode t = p.get(type);
                        if (t == null || !t.isInt() || !List.of(0, 4, 6, 7).contains(t.asInt())) {
                            errors.add("application.permissions." + type + ": required, one of 0 (none), 4 (read), "
                                    + "6 (read, write), 7 (read, write, execute)");
                        }
                    }
                }
            }
        }
        JsonNode processes = file.get("processes");
        if (processes == null || processes.isNull()) {
            return;
        }
        if (!processes.isArray()) {
            errors.add("processes: must be a list");
            return;
        }
        Set<String> parents = new HashSet<>();
        for (JsonNode p : processes) {
            if (p.isObject() && p.path("name").isTextual() && !parents.add(p.get("name").asText())) {
                errors.add("processes: two parent processes are named '" + p.get("name").asText() + "'");
            }
        }
        for (int i = 0; i < processes.size(); i++) {
            parent(processes.get(i), "processes[" + i + "].", parents);
        }
    }

    private void parent(JsonNode p, String at, Set<String> parents) {
        if (!process(p, at)) {
            return;
        }
        String name = p.path("name").asText();
        Set<String> tree = new HashSet<>();
        tree.add(name);
        JsonNode steps = p.get("steps");
        if (steps != null && !steps.isNull()) {
            if (!steps.isArray()) {
                errors.add(at + "steps: must be a list");
            } else {
                for (int i = 0; i < steps.size(); i++) {
                    JsonNode s = steps.get(i);
                    String sat = at + "steps[" + i + "].";
                    if (s.isObject() && s.path("name").isTextual() && !tree.add(s.get("name").asText())) {
                        errors.add(sat + "name: '" + s.get("name").asText() + "' is taken in this tree (by the parent"
                                + " or another step): next processes are named within their tree");
                    }
                    if (process(s, sat) && s.has("steps")) {
                        errors.add(sat + "steps: a step has no steps of its own");
                    }
                    if (s.has("deadlines")) {
                        errors.add(sat + "deadlines: a step has none (its parent's deadlines cover the job)");
                    }
                    if (s.has("trigger")) {
                        errors.add(sat + "trigger: a step has none (its parent's trigger policy starts the job)");
                    }
                }
            }
        }
        links(p, at, tree, parents);
        if (steps != null && steps.isArray()) {
            for (int i = 0; i < steps.size(); i++) {
                links(steps.get(i), at + "steps[" + i + "].", tree, parents);
            }
        }
    }

    /** The fields every process has; answers whether it is a mapping at all. */
    private boolean process(JsonNode p, String at) {
        if (p == null || !p.isObject()) {
            errors.add(at.substring(0, at.length() - 1) + ": must be a mapping");
            return false;
        }
        known(p, at, PROCESS);
        text(p, at, "name", 45, true);
        text(p, at, "description", 256, true);
        integer(p, at, "type", 1, true);
        integer(p, at, "workflowType", 0, true);
        if (p.has("canRecover") && !p.get("canRecover").isBoolean()) {
            errors.add(at + "canRecover: must be true or false");
        }
        text(p, at, "batchCutPattern", 45, false);
        trigger(p, at);
        deadlines(p.get("deadlines"), at + "deadlines.");
        properties(p, at);
        return true;
    }

    /**
     * A parent's trigger, as execution-service will check it: a policy, or a mapping whose fields fit the policy; its
     * inputs are enqueuing processes of the parent's steps.
     */
    private void trigger(JsonNode p, String at) {
        JsonNode t = p.get("trigger");
        if (t == null || t.isNull()) {
            return;
        }
        String policy = t.isObject() ? (t.hasNonNull("policy") ? t.get("policy").asText("") : null) : t.asText("");
        if (policy == null || !Pipeline.TRIGGERS.contains(policy)) {
            errors.add(at + "trigger" + (t.isObject() ? ".policy" : "") + ": one of "
                    + String.join(", ", Pipeline.TRIGGERS));
        }
        if (!t.isObject()) {
            return;
        }
        String tat = at + "trigger.";
        known(t, tat, TRIGGER);
        JsonNode n = t.get("n");
        if (n != null && !n.isNull() && (!n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 1)) {
            errors.add(tat + "n: a whole number of at least 1");
        }
        if (n != null && !n.isNull() && !"n-of".equals(policy)) {
            errors.add(tat + "n: only for policy n-of");
        }
        JsonNode timeout = t.get("timeout");
        if (timeout != null && !timeout.isNull()) {
            try {
                if (java.time.Duration.parse(timeout.asText("")).compareTo(java.time.Duration.ZERO) <= 0) {
                    errors.add(tat + "timeout: longer than zero");
                }
            } catch (java.time.format.DateTimeParseException e) {
                errors.add(tat + "timeout: an ISO-8601 duration such as PT2H");
            }
            if (!"all-with-timeout".equals(policy)) {
                errors.add(tat + "timeout: only for policy all-with-timeout");
            }
        }
        JsonNode grain = t.get("grain");
        if (grain != null && !grain.isNull() && !Pipeline.TRIGGER_GRAINS.contains(grain.asText(""))) {
            errors.add(tat + "grain: one of " + String.join(", ", Pipeline.TRIGGER_GRAINS));
        }
        JsonNode zone = t.get("zone");
        if (zone != null && !zone.isNull()) {
            try {
                java.time.ZoneId.of(zone.asText(""));
            } catch (java.time.DateTimeException e) {
                errors.add(tat + "zone: a time zone such as Europe/Berlin");
            }
        }
        JsonNode coalesce = t.get("coalesce");
        if (coalesce != null && !coalesce.isNull() && !coalesce.isBoolean()) {
            errors.add(tat + "coalesce: must be true or false");
        }
        JsonNode inputs = t.get("inputs");
        if (inputs == null || inputs.isNull()) {
            return;
        }
        if (!inputs.isArray()) {
            errors.add(tat + "inputs: must be a list of processes, as enqueuing names them");
            return;
        }
        Set<String> enqueuing = new java.util.HashSet<>();
        p.path("steps").forEach(step -> step.path("enqueuing").forEach(r -> enqueuing.add(
                new Pipeline.Ref(textOf(r, "application"), textOf(r, "process")).toString())));
        for (int i = 0; i < inputs.size(); i++) {
            JsonNode r = inputs.get(i);
            String label = new Pipeline.Ref(textOf(r, "application"), textOf(r, "process")).toString();
            if (!r.isObject() || textOf(r, "process") == null) {
                errors.add(tat + "inputs[" + i + "]: a mapping with process (and application for another one's)");
            } else if (!enqueuing.contains(label)) {
                errors.add(tat + "inputs[" + i + "]: '" + label + "' is not an enqueuing process of any of its steps");
            }
        }
    }

    private static String textOf(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }

    /** A parent's deadlines, as the registry will check them: a zone, a known grain, ISO-8601 durations. */
    private void deadlines(JsonNode d, String at) {
        if (d == null || d.isNull()) {
            return;
        }
        if (!d.isObject()) {
            errors.add(at.substring(0, at.length() - 1) + ": must be a mapping");
            return;
        }
        known(d, at, DEADLINES);
        text(d, at, "zone", 64, true);
        text(d, at, "cron", 120, false);
        JsonNode grain = d.get("grain");
        if (grain != null && !grain.isNull() && !GRAINS.contains(grain.asText("").toLowerCase(java.util.Locale.ROOT))) {
            errors.add(at + "grain: one of " + String.join(", ", GRAINS));
        }
        boolean any = false;
        for (String field : List.of("startBy", "finishBy", "maxRuntime")) {
            JsonNode v = d.get(field);
            if (v == null || v.isNull()) {
                continue;
            }
            any = true;
            try {
                java.time.Duration.parse(v.asText(""));
            } catch (java.time.format.DateTimeParseException e) {
                errors.add(at + field + ": an ISO-8601 duration such as PT6H");
            }
        }
        if (!any) {
            errors.add(at.substring(0, at.length() - 1) + ": give at least one of startBy, finishBy and maxRuntime");
        }
    }

    private void links(JsonNode p, String at, Set<String> tree, Set<String> parents) {
        if (p == null || !p.isObject()) {
            return;
        }
        JsonNode next = p.get("next");
        if (next != null && !next.isNull()) {
            if (!next.isArray()) {
                errors.add(at + "next: must be a list of process names");
            } else {
                for (int i = 0; i < next.size(); i++) {
                    if (!next.get(i).isTextual() || !tree.contains(next.get(i).asText())) {
                        errors.add(at + "next[" + i + "]: '" + next.get(i).asText() + "' is not this parent or one of"
                                + " its steps");
                    }
                }
            }
        }
        JsonNode enqueuing = p.get("enqueuing");
        if (enqueuing != null && !enqueuing.isNull()) {
            if (!enqueuing.isArray()) {
                errors.add(at + "enqueuing: must be a list of {process, application?}");
                return;
            }
            for (int i = 0; i < enqueuing.size(); i++) {
                JsonNode r = enqueuing.get(i);
                String rat = at + "enqueuing[" + i + "].";
                if (!r.isObject()) {
                    errors.add(rat.substring(0, rat.length() - 1) + ": must be a mapping {process, application?}");
                    continue;
                }
                known(r, rat, REF);
                text(r, rat, "process", 45, true);
                text(r, rat, "application", 45, false);
                if (!r.has("application") && r.path("process").isTextual()
                        && !parents.contains(r.get("process").asText())) {
                    errors.add(rat + "process: no parent process '" + r.get("process").asText() + "' in this "
                            + "application (name another application's with 'application')");
                }
            }
        }
    }

    private void properties(JsonNode p, String at) {
        JsonNode props = p.get("properties");
        if (props == null || props.isNull()) {
            return;
        }
        if (!props.isArray()) {
            errors.add(at + "properties: must be a list");
            return;
        }
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < props.size(); i++) {
            JsonNode q = props.get(i);
            String qat = at + "properties[" + i + "].";
            if (!q.isObject()) {
                errors.add(qat.substring(0, qat.length() - 1) + ": must be a mapping {group, key, value}");
                continue;
            }
            known(q, qat, PROPERTY);
            text(q, qat, "group", 128, true);
            text(q, qat, "description", 1028, false);
            JsonNode key = q.get("key");
            if (key == null || !key.isTextual()) {
                errors.add(qat + "key: required, a string");
            } else {
                whyKeyRefused(key.asText()).ifPresent(why -> errors.add(qat + "key: " + why));
                if (!keys.add(key.asText())) {
                    errors.add(qat + "key: '" + key.asText() + "' is set twice on this process");
                }
            }
            boolean secretGroup = Pipeline.Property.secretGroup(q.path("group").asText());
            JsonNode secret = q.get("secret");
            if (secret != null && !secret.isBoolean()) {
                errors.add(qat + "secret: must be true or false");
            } else if (secretGroup != (secret != null && secret.asBoolean())) {
                errors.add(qat + "secret: " + (secretGroup ? "required (true) for groups credential and security, "
                        + "whose values are secrets" : "only groups credential and security hold secrets"));
            }
            if (secretGroup) {
                if (q.has("value")) {
                    errors.add(qat + "value: a secret's value is never in a file; set it with PUT "
                            + "/processes/{id}/properties/{key} (apply leaves secrets untouched)");
                }
            } else {
                text(q, qat, "value", 2048, true);
            }
        }
    }

    /** The registry's key rule (PropertyRow.whyKeyRefused). */
    static java.util.Optional<String> whyKeyRefused(String key) {
        if (key.isEmpty()) {
            return java.util.Optional.of("must not be empty");
        }
        if (key.codePointCount(0, key.length()) > 128) {
            return java.util.Optional.of("must be at most 128 characters long");
        }
        if (key.chars().anyMatch(Character::isISOControl)) {
            return java.util.Optional.of("must not contain control characters");
        }
        if (key.indexOf('/') >= 0) {
            return java.util.Optional.of("must not contain '/'");
        }
        if (key.equals(".") || key.equals("..")) {
            return java.util.Optional.of("must not be '.' or '..'");
        }
        return java.util.Optional.empty();
    }

    private void known(JsonNode node, String at, Set<String> fields) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!fields.contains(f)) {
                errors.add(at + f + ": unknown field (known: " + String.join(", ", fields.stream().sorted().toList())
                        + ")");
            }
        }
    }

    private void text(JsonNode node, String at, String field, int max, boolean required) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                errors.add(at + field + ": required");
            }
        } else if (!v.isTextual()) {
            errors.add(at + field + ": must be a string");
        } else if (required && v.asText().isBlank() && !field.equals("value")) {
            errors.add(at + field + ": must not be blank");
        } else if (v.asText().codePointCount(0, v.asText().length()) > max) {
            errors.add(at + field + ": at most " + max + " characters");
        }
    }

    private void integer(JsonNode node, String at, String field, int min, boolean required) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                errors.add(at + field + ": required");
            }
        } else if (!v.isInt() || v.asInt() < min) {
            errors.add(at + field + ": must be a whole number, at least " + min);
        }
    }

    // ---- conversion (of a file that passed check) ----

    static Pipeline toPipeline(JsonNode file) {
        JsonNode a = file.get("application");
        JsonNode p = a.get("permissions");
        Pipeline.Permissions permissions = p == null || p.isNull() ? null : new Pipeline.Permissions(
                str(p, "ownerUser"), str(p, "ownerGroup"), p.get("owner").asInt(), p.get("group").asInt(),
                p.get("others").asInt());
        List<Pipeline.Process> processes = new ArrayList<>();
        file.path("processes").forEach(n -> processes.add(process(n)));
        return new Pipeline(Pipeline.API_VERSION, new Pipeline.Application(str(a, "name"), str(a, "description"),
                str(a, "owner"), permissions), processes);
    }

    private static Pipeline.Process process(JsonNode n) {
        List<Pipeline.Ref> enqueuing = new ArrayList<>();
        n.path("enqueuing").forEach(r -> enqueuing.add(new Pipeline.Ref(str(r, "application"), str(r, "process"))));
        List<String> next = new ArrayList<>();
        n.path("next").forEach(x -> next.add(x.asText()));
        List<Pipeline.Property> properties = new ArrayList<>();
        n.path("properties").forEach(q -> properties.add(new Pipeline.Property(str(q, "group"), str(q, "key"),
                str(q, "value"), str(q, "description"), q.has("secret") ? q.get("secret").asBoolean() : null)));
        List<Pipeline.Process> steps = new ArrayList<>();
        n.path("steps").forEach(s -> steps.add(process(s)));
        Pipeline.Trigger trigger = Pipeline.Trigger.read(n.get("trigger"));
        JsonNode d = n.get("deadlines");
        Pipeline.Deadlines deadlines = d == null || d.isNull() ? null : new Pipeline.Deadlines(str(d, "grain"),
                str(d, "cron"), str(d, "zone"), str(d, "startBy"), str(d, "finishBy"), str(d, "maxRuntime"));
        return new Pipeline.Process(str(n, "name"), str(n, "description"), n.get("type").asInt(),
                n.get("workflowType").asInt(), n.path("canRecover").asBoolean(false), str(n, "batchCutPattern"),
                enqueuing, next, properties, steps, trigger == null || "none".equals(trigger.policy()) ? null : trigger,
                deadlines);
    }

    private static String str(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
