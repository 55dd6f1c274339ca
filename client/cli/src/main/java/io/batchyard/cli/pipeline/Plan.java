package io.batchyard.cli.pipeline;

import static io.batchyard.cli.pipeline.Pipeline.orEmpty;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What applying a pipeline file would do to the live registry: per object, create / change / delete, field by field
 * (old → new), and the request that does it in one transaction ({@code POST /pipelines/apply}) with what the plan saw
 * of the live state, so that the registry refuses it when that moved. Trigger policies live in execution-service:
 * they are shown like any field but set after the registry's transaction ({@code triggers}, parent to settings). So
 * are a parent's data deadlines ({@code deadlines}, parent to deadlines, null to remove them), each its own call.
 * {@code registryEmpty}: nothing for the registry to do (no request is sent). Pure: built from two {@link Pipeline}s
 * and the live processes' versions, no I/O.
 */
public record Plan(String application, List<ObjectChange> changes, List<String> notes, Map<String, Object> request,
                   boolean registryEmpty, Map<String, Pipeline.Trigger> triggers,
                   Map<String, Pipeline.Deadlines> deadlines) {

    public enum Action {
        CREATE("+"), CHANGE("~"), DELETE("-");

        private final String sign;

        Action(String sign) {
            this.sign = sign;
        }

        public String word() {
            return name().toLowerCase();
        }
    }

    /** One field of an object: {@code before} null for a created object, {@code after} null for a deleted one. */
    public record FieldChange(String field, Object before, Object after) {
        String text() {
            return before == null ? field + ": " + show(after)
                    : after == null ? field + ": " + show(before) + " -> (none)"
                    : field + ": " + show(before) + " -> " + show(after);
        }
    }

    /** An object: {@code application 'sales'}, {@code process 'load/fetch'}, {@code property 'load/fetch' source}. */
    public record ObjectChange(Action action, String object, List<FieldChange> fields) {
    }

    /**
     * The live state: {@code pipeline} null when the application does not exist; {@code versions} the version of each
     * live process by its label ({@code load}, {@code load/fetch}). Permissions and owner are null where the reader
     * may not see them.
     */
    public record Live(Pipeline pipeline, Map<String, Integer> versions) {
        public static Live absent() {
            return new Live(null, Map.of());
        }
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public long count(Action action) {
        return changes.stream().filter(c -> c.action() == action).count();
    }

    /** The plan for people: one line per object, its fields indented under it, then the notes and the totals. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (ObjectChange c : changes) {
            out.add(c.action().sign + " " + c.action().word() + " " + c.object());
            c.fields().forEach(f -> out.add("    " + f.text()));
        }
        notes.forEach(n -> out.add("note: " + n));
        out.add("application '" + application + "': " + (isEmpty() ? "no changes"
                : count(Action.CREATE) + " to create, " + count(Action.CHANGE) + " to change, "
                + count(Action.DELETE) + " to delete"));
        return out;
    }

    public static Plan between(Live live, Pipeline desired) {
        return new Builder(live, desired.sorted()).build();
    }

    static String label(String parent, String step) {
        return step == null ? parent : parent + "/" + step;
    }

    private static String show(Object v) {
        return v instanceof String s ? "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : String.valueOf(v);
    }

    private static final class Builder {
        private final Live live;
        private final Pipeline desired;
        private final List<ObjectChange> changes = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private final List<Map<String, Object>> creates = new ArrayList<>();
        private final List<Map<String, Object>> updates = new ArrayList<>();
        private final List<Map<String, Object>> deletes = new ArrayList<>();
        private final List<Map<String, Object>> propertyChanges = new ArrayList<>();
        private final Map<String, Pipeline.Trigger> triggers = new LinkedHashMap<>();
        private final Map<String, Pipeline.Deadlines> deadlines = new LinkedHashMap<>();
        /** Whether any change is the registry's (everything but a trigger policy). */
        private boolean registryTouched;

        Builder(Live live, Pipeline desired) {
            this.live = live;
            this.desired = desired;
        }

        Plan build() {
            Pipeline.Application want = desired.application();
            Pipeline.Application have = live.pipeline() == null ? null : live.pipeline().application();
            application(have, want);
            Map<String, Pipeline.Process> haveParents = byName(live.pipeline() == null ? List.of()
                    : live.pipeline().processes());
            Map<String, Pipeline.Process> wantParents = byName(desired.processes());
            List<Map<String, Object>> stepDeletes = new ArrayList<>();
            List<Map<String, Object>> parentDeletes = new ArrayList<>();
            for (Pipeline.Process p : orEmpty(desired.processes())) {
                Pipeline.Process old = haveParents.get(p.name());
                process(p.name(), null, old, p);
                Map<String, Pipeline.Process> oldSteps = byName(old == null ? List.of() : old.steps());
                for (Pipeline.Process s : orEmpty(p.steps())) {
                    process(p.name(), s.name(), oldSteps.get(s.name()), s);
                }
                for (Pipeline.Process gone : oldSteps.values()) {
                    if (byName(p.steps()).get(gone.name()) == null) {
                        changes.add(deleted(label(p.name(), gone.name()), gone));
                        registryTouched = true;
                        stepDeletes.add(change("DELETE_PROCESS", p.name(), gone.name()));
                    }
                }
            }
            for (Pipeline.Process gone : haveParents.values()) {
                if (!wantParents.containsKey(gone.name())) {
                    changes.add(deleted(label(gone.name(), null), gone));
                    registryTouched = true;
                    parentDeletes.add(change("DELETE_PROCESS", gone.name(), null));
                }
            }
            deletes.addAll(stepDeletes);
            deletes.addAll(parentDeletes);

            List<Map<String, Object>> ordered = new ArrayList<>();
            // creates first (parents, then steps: the request's order), so that every name a link uses exists when
            // the updates set the links; deletes after the updates, which drop the links to what is deleted
            ordered.addAll(creates.stream().filter(c -> c.get("step") == null).toList());
            ordered.addAll(creates.stream().filter(c -> c.get("step") != null).toList());
            ordered.addAll(updates);
            ordered.addAll(deletes);
            ordered.addAll(propertyChanges);
            Map<String, Object> request = new LinkedHashMap<>();
            Map<String, Object> application = new LinkedHashMap<>();
            application.put("name", want.name());
            application.put("description", want.description());
            application.put("owner", want.owner());
            application.put("permissions", want.permissions());
            request.put("application", application);
            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("applicationExists", have != null);
            expected.put("description", have == null ? null : have.description());
            expected.put("owner", have == null ? null : have.owner());
            expected.put("permissions", have == null ? null : have.permissions());
            expected.put("processes", live.versions().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> seen(e.getKey(), e.getValue())).toList());
            request.put("expected", expected);
            request.put("changes", ordered);
            return new Plan(want.name(), List.copyOf(changes), List.copyOf(notes), request, !registryTouched,
                    triggers, deadlines);
        }

        private void application(Pipeline.Application have, Pipeline.Application want) {
            String object = "application '" + want.name() + "'";
            List<FieldChange> fields = new ArrayList<>();
            if (have == null) {
                fields.add(new FieldChange("description", null, want.description()));
                fields.add(new FieldChange("owner", null, want.owner()));
                permissions(null, want.permissions(), fields);
                changes.add(new ObjectChange(Action.CREATE, object, fields));
                registryTouched = true;
                return;
            }
            field("description", have.description(), want.description(), fields);
            if (have.owner() != null) {
                field("owner", have.owner(), want.owner(), fields);
            }
            if (want.permissions() != null && have.permissions() == null) {
                notes.add(object + ": its permissions are not readable with this token (the owner's or an "
                        + "administrator's); apply sets them only if the registry allows it");
            } else if (want.permissions() != null) {
                permissions(have.permissions(), want.permissions(), fields);
            }
            if (!fields.isEmpty()) {
                changes.add(new ObjectChange(Action.CHANGE, object, fields));
                registryTouched = true;
            }
        }

        private static void permissions(Pipeline.Permissions have, Pipeline.Permissions want,
                                        List<FieldChange> fields) {
            if (want == null) {
                return;
            }
            if (want.ownerUser() != null) {
                field("permissions.ownerUser", have == null ? null : have.ownerUser(), want.ownerUser(), fields);
            }
            field("permissions.ownerGroup", have == null ? null : have.ownerGroup(), want.ownerGroup(), fields);
            field("permissions.owner", have == null ? null : have.owner(), want.owner(), fields);
            field("permissions.group", have == null ? null : have.group(), want.group(), fields);
            field("permissions.others", have == null ? null : have.others(), want.others(), fields);
        }

        private void process(String parent, String step, Pipeline.Process have, Pipeline.Process want) {
            String label = label(parent, step);
            List<FieldChange> fields = new ArrayList<>();
            field("description", have == null ? null : have.description(), want.description(), fields);
            field("type", have == null ? null : have.type(), want.type(), fields);
            field("workflowType", have == null ? null : have.workflowType(), want.workflowType(), fields);
            field("canRecover", have == null ? null : have.canRecover(), want.canRecover(), fields);
            field("batchCutPattern", have == null ? null : have.batchCutPattern(), want.batchCutPattern(), fields);
            list("enqueuing", have == null ? null : have.enqueuing(), want.enqueuing(), fields);
            list("next", have == null ? null : have.next(), want.next(), fields);
            boolean registryFields = !fields.isEmpty();
            if (step == null) {
                // set after the registry's transaction (the trigger is execution-service's), shown with the rest
                Pipeline.Trigger before = have == null ? null : normalised(have.trigger());
                Pipeline.Trigger after = normalised(want.trigger());
                if (before != null && after != null && after.zone() == null) {
                    // a file without a zone leaves the zone in force (the runner's, unless one was set) alone
                    before = new Pipeline.Trigger(before.policy(), before.inputs(), before.n(), before.timeout(),
                            before.grain(), null, before.coalesce());
                }
                if (have == null ? after != null : !Objects.equals(before, after)) {
                    fields.add(new FieldChange("trigger", shown(before), shown(after)));
                    triggers.put(parent, after == null ? Pipeline.Trigger.of("none") : after);
                }
                // set after the registry's transaction too, as the deadlines' own call
                Pipeline.Deadlines was = have == null || have.deadlines() == null ? null : have.deadlines().normalised();
                Pipeline.Deadlines will = want.deadlines() == null ? null : want.deadlines().normalised();
                if (!Objects.equals(was, will)) {
                    fields.add(new FieldChange("deadlines", was, will));
                    deadlines.put(parent, will);
                }
            }
            if (have == null) {
                registryTouched = true;
                changes.add(new ObjectChange(Action.CREATE, "process '" + label + "'", fields));
                Map<String, Object> create = change("CREATE_PROCESS", parent, step);
                create.put("process", fields(parent, want.unlinked()));
                creates.add(create);
                if (!orEmpty(want.enqueuing()).isEmpty() || !orEmpty(want.next()).isEmpty()) {
                    Map<String, Object> link = change("UPDATE_PROCESS", parent, step);
                    link.put("process", fields(parent, want));
                    updates.add(link);
                }
            } else if (!fields.isEmpty()) {
                changes.add(new ObjectChange(Action.CHANGE, "process '" + label + "'", fields));
                if (registryFields) {
                    registryTouched = true;
                    Map<String, Object> update = change("UPDATE_PROCESS", parent, step);
                    update.put("process", fields(parent, want));
                    updates.add(update);
                }
            }
            properties(parent, step, have == null ? List.of() : orEmpty(have.properties()), orEmpty(want.properties()));
        }

        private void properties(String parent, String step, List<Pipeline.Property> have,
                                List<Pipeline.Property> want) {
            String label = label(parent, step);
            Map<String, Pipeline.Property> old = have.stream()
                    .collect(Collectors.toMap(Pipeline.Property::key, Function.identity(), (a, b) -> a,
                            LinkedHashMap::new));
            for (Pipeline.Property p : want) {
                Pipeline.Property o = old.remove(p.key());
                String object = "property '" + label + "' " + p.key();
                if (p.holdsSecret()) {
                    if (o == null || !o.holdsSecret()) {
                        notes.add(object + " is a secret the file only names: set its value with PUT "
                                + "/processes/{id}/properties/{key} after the apply" + (o == null ? ""
                                : "; the registry's non-secret value in group " + o.group() + " is left as it is"));
                    }
                    continue; // apply leaves a secret untouched
                }
                List<FieldChange> fields = new ArrayList<>();
                field("group", o == null ? null : o.group(), p.group(), fields);
                field("value", o == null ? null : o.holdsSecret() ? "(secret)" : o.value(), p.value(), fields);
                field("description", o == null ? null : o.description(), p.description(), fields);
                if (o == null || !fields.isEmpty()) {
                    registryTouched = true;
                    changes.add(new ObjectChange(o == null ? Action.CREATE : Action.CHANGE, object, fields));
                    Map<String, Object> put = change("PUT_PROPERTY", parent, step);
                    Map<String, Object> property = new LinkedHashMap<>();
                    property.put("configGroup", p.group());
                    property.put("key", p.key());
                    property.put("value", p.value());
                    property.put("description", p.description());
                    put.put("property", property);
                    propertyChanges.add(put);
                }
            }
            for (Pipeline.Property gone : old.values()) {
                registryTouched = true;
                List<FieldChange> fields = new ArrayList<>();
                fields.add(new FieldChange("group", gone.group(), null));
                fields.add(new FieldChange("value", gone.holdsSecret() ? "(secret)" : gone.value(), null));
                changes.add(new ObjectChange(Action.DELETE, "property '" + label + "' " + gone.key(), fields));
                Map<String, Object> delete = change("DELETE_PROPERTY", parent, step);
                delete.put("property", Map.of("key", gone.key()));
                propertyChanges.add(delete);
            }
        }

        /** Settings as execution-service keeps them (old policy names, defaults); null for none. */
        private static Pipeline.Trigger normalised(Pipeline.Trigger trigger) {
            return trigger == null ? null : trigger.normalised();
        }

        /** Settings as a plan shows them: absent is {@code none}. */
        private static String shown(Pipeline.Trigger trigger) {
            return trigger == null ? "none" : trigger.toString();
        }

        private static ObjectChange deleted(String label, Pipeline.Process gone) {
            List<FieldChange> fields = new ArrayList<>();
            fields.add(new FieldChange("description", gone.description(), null));
            fields.add(new FieldChange("type", gone.type(), null));
            if (!orEmpty(gone.steps()).isEmpty()) {
                fields.add(new FieldChange("steps", gone.steps().stream().map(Pipeline.Process::name).toList(), null));
            }
            return new ObjectChange(Action.DELETE, "process '" + label + "'", fields);
        }

        private static Map<String, Object> fields(String parent, Pipeline.Process p) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("description", p.description());
            f.put("processTypeId", p.type());
            f.put("workflowTypeId", p.workflowType());
            f.put("canRecover", p.canRecover());
            f.put("batchCutPattern", p.batchCutPattern());
            f.put("next", orEmpty(p.next()));
            f.put("enqueuing", orEmpty(p.enqueuing()).stream().map(r -> {
                Map<String, Object> ref = new LinkedHashMap<>();
                ref.put("application", r.application());
                ref.put("process", r.process());
                return ref;
            }).toList());
            return f;
        }

        private static Map<String, Object> change(String kind, String parent, String step) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("kind", kind);
            c.put("parent", parent);
            c.put("step", step);
            return c;
        }

        private static Map<String, Object> seen(String label, int version) {
            Map<String, Object> s = new LinkedHashMap<>();
            int slash = label.indexOf('/');
            s.put("parent", slash < 0 ? label : label.substring(0, slash));
            s.put("step", slash < 0 ? null : label.substring(slash + 1));
            s.put("version", version);
            return s;
        }

        private static void field(String name, Object before, Object after, List<FieldChange> fields) {
            if (!Objects.equals(before, after)) {
                fields.add(new FieldChange(name, before, after));
            }
        }

        private static void list(String name, List<?> before, List<?> after, List<FieldChange> fields) {
            List<String> b = before == null ? null : before.stream().map(String::valueOf).toList();
            List<String> a = orEmpty(after).stream().map(String::valueOf).toList();
            if (before == null ? !a.isEmpty() : !b.equals(a)) {
                fields.add(new FieldChange(name, b, a));
            }
        }

        private static Map<String, Pipeline.Process> byName(List<Pipeline.Process> processes) {
            Map<String, Pipeline.Process> out = new LinkedHashMap<>();
            orEmpty(processes).forEach(p -> out.put(p.name(), p));
            return out;
        }
    }
}
