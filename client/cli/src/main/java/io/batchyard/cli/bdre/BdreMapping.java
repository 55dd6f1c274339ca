package io.batchyard.cli.bdre;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How BDRE's rows become registry objects, and which of them the registry would refuse, decided without calling it
 * (so that a dry run names the refusals a real run would meet): the field limits of the registry's API, its id range
 * for chosen process ids, its property-key rule and its process-type hierarchy. Also the field-by-field comparison of
 * a wanted object with the live one, which makes a second import a no-op.
 */
public final class BdreMapping {

    /** The ids an import may choose for a process (registry-service README: 1 to 99,999,999). */
    public static final long MAX_CHOSEN_ID = 99_999_999L;
    /** Where a process whose BDRE id lies outside that range records it (registry property group and key). */
    public static final String ORIGIN_GROUP = "bdre-import";
    public static final String ORIGIN_KEY = "bdre.process-id";
    /** The registry's secret config groups: write-only, so their values cannot be compared after writing. */
    private static final List<String> SECRET_GROUPS = List.of("credential", "security");

    private BdreMapping() {
    }

    public static boolean keepsId(long bdreId) {
        return bdreId >= 1 && bdreId <= MAX_CHOSEN_ID;
    }

    public static boolean secretGroup(String configGroup) {
        return configGroup != null && SECRET_GROUPS.stream().anyMatch(configGroup::equalsIgnoreCase);
    }

    // ---- applications ----

    /** A bus domain as an application; the registry requires a description and an owner, BDRE may leave them empty. */
    public static Registry.Application application(Bdre.BusDomain d) {
        return new Registry.Application(0, d.name(), description(d.description(), d.name()),
                d.owner() == null || d.owner().isBlank() ? "bdre" : d.owner());
    }

    public static Optional<String> whyRefused(Bdre.BusDomain d) {
        return firstOf(text("bus_domain_name", d.name(), 45, true), text("description", d.description(), 256, false),
                text("bus_domain_owner", d.owner(), 45, false));
    }

    public static List<String> changes(Registry.Application want, Registry.Application live) {
        List<String> changed = new ArrayList<>();
        same(changed, "description", want.description(), live.description());
        same(changed, "owner", want.owner(), live.owner());
        return changed;
    }

    /**
     * An application's permissions from its BDRE parent processes' permissions (BDRE keeps them per process,
     * Batchyard per application): the owner user and group when every parent agrees (else the first parent's), and
     * for each class the bits every parent grants (bitwise and, so that the application is never more open than any
     * of its processes was). Empty when no parent carries permissions.
     */
    public static Optional<Registry.Permissions> permissions(List<Bdre.Process> parents) {
        List<Bdre.Process> with = parents.stream().filter(p -> p.userAccess() != null && p.groupAccess() != null
                && p.othersAccess() != null).toList();
        if (with.isEmpty()) {
            return Optional.empty();
        }
        int owner = 7;
        int group = 7;
        int others = 7;
        for (Bdre.Process p : with) {
            owner &= p.userAccess();
            group &= p.groupAccess();
            others &= p.othersAccess();
        }
        Bdre.Process first = with.get(0);
        return Optional.of(new Registry.Permissions(blank(first.userName()) ? null : first.userName(),
                blank(first.ownerRole()) ? null : first.ownerRole(), owner, group, others));
    }

    /** True when the parents' permissions differ, so that the report can say they were narrowed. */
    public static boolean permissionsDiffer(List<Bdre.Process> parents) {
        return parents.stream().map(p -> List.of(String.valueOf(p.userName()), String.valueOf(p.ownerRole()),
                String.valueOf(p.userAccess()), String.valueOf(p.groupAccess()), String.valueOf(p.othersAccess())))
                .distinct().count() > 1;
    }

    public static List<String> changes(Registry.Permissions want, Registry.Permissions live) {
        List<String> changed = new ArrayList<>();
        same(changed, "ownerUser", want.ownerUser(), live.ownerUser());
        same(changed, "ownerGroup", want.ownerGroup(), live.ownerGroup());
        if (want.owner() != live.owner()) {
            changed.add("owner");
        }
        if (want.group() != live.group()) {
            changed.add("group");
        }
        if (want.others() != live.others()) {
            changed.add("others");
        }
        return changed;
    }

    // ---- processes and templates ----

    /**
     * Why the registry would refuse a process or template of this type and shape, if it would: the type must be one
     * the registry knows, a parent's type a parent-level type, a step's type one whose parent type is its parent's.
     */
    public static Optional<String> whyRefused(String name, String description, String batchCutPattern, int typeId,
                                              Integer parentTypeId, boolean step, Map<Integer, Integer> types) {
        Optional<String> fields = firstOf(text("process_name", name, 45, true),
                text("description", description, 256, false), text("batch_cut_pattern", batchCutPattern, 45, false));
        if (fields.isPresent()) {
            return fields;
        }
        if (!types.containsKey(typeId)) {
            return Optional.of("process type " + typeId + " is not one of Batchyard's process types");
        }
        Integer expected = types.get(typeId);
        if (!step && expected != null && expected != 0) {
            return Optional.of("process type " + typeId + " is a step type, but this is a parent");
        }
        if (step && (expected == null || expected == 0)) {
            return Optional.of("process type " + typeId + " is a parent type, but this is a step");
        }
        if (step && !Objects.equals(expected, parentTypeId)) {
            return Optional.of("process type " + typeId + " needs a parent of type " + expected + ", its parent is of "
                    + "type " + parentTypeId);
        }
        return Optional.empty();
    }

    /** A BDRE process in the registry's terms, with the registry's ids for itself, its parent and its references. */
    public static Registry.Process process(Bdre.Process p, Long id, long applicationId, Long parentId,
                                           List<Long> enqueuing, List<Long> next) {
        return new Registry.Process(id, p.name(), description(p.description(), p.name()), applicationId, p.typeId(),
                parentId, p.canRecover(), enqueuing, blank(p.batchCutPattern()) ? null : p.batchCutPattern(), next,
                p.workflowId(), false);
    }

    /** The fields in which {@code live} differs from {@code want} ({@code nextProcessIds} included). */
    public static List<String> changes(Registry.Process want, Registry.Process live) {
        List<String> changed = new ArrayList<>();
        same(changed, "name", want.name(), live.name());
        same(changed, "description", want.description(), live.description());
        if (want.applicationId() != live.applicationId()) {
            changed.add("applicationId");
        }
        if (want.typeId() != live.typeId()) {
            changed.add("processTypeId");
        }
        if (want.canRecover() != live.canRecover()) {
            changed.add("canRecover");
        }
        if (!new HashSet<>(want.enqueuing()).equals(new HashSet<>(live.enqueuing()))) {
            changed.add("enqueuingProcessIds");
        }
        same(changed, "batchCutPattern", want.batchCutPattern(), live.batchCutPattern());
        if (!new HashSet<>(want.next()).equals(new HashSet<>(live.next()))) {
            changed.add("nextProcessIds");
        }
        if (want.workflowTypeId() != live.workflowTypeId()) {
            changed.add("workflowTypeId");
        }
        return changed;
    }

    public static Registry.Template template(Bdre.Template t, long applicationId, Long parentId, List<Long> next) {
        return new Registry.Template(null, t.name(), description(t.description(), t.name()), applicationId,
                t.typeId(), parentId, t.canRecover(), blank(t.batchCutPattern()) ? null : t.batchCutPattern(), next,
                t.workflowId());
    }

    public static List<String> changes(Registry.Template want, Registry.Template live) {
        List<String> changed = new ArrayList<>();
        same(changed, "description", want.description(), live.description());
        if (want.typeId() != live.typeId()) {
            changed.add("processTypeId");
        }
        if (want.canRecover() != live.canRecover()) {
            changed.add("canRecover");
        }
        same(changed, "batchCutPattern", want.batchCutPattern(), live.batchCutPattern());
        if (!new HashSet<>(want.next()).equals(new HashSet<>(live.next()))) {
            changed.add("nextTemplateIds");
        }
        if (want.workflowTypeId() != live.workflowTypeId()) {
            changed.add("workflowTypeId");
        }
        return changed;
    }

    // ---- properties ----

    public static Registry.Property property(Bdre.Property p) {
        return new Registry.Property(p.configGroup(), p.key(), p.value() == null ? "" : p.value(),
                blank(p.description()) ? null : p.description(), secretGroup(p.configGroup()));
    }

    /**
     * Why the registry would refuse this key (its Property keys rule): 1 to 128 characters, kept exactly (spaces
     * too), no control character, no {@code /}, not {@code .} or {@code ..}; and the value and group limits.
     */
    public static Optional<String> whyRefused(Bdre.Property p, boolean template) {
        String key = p.key();
        if (key == null || key.isEmpty()) {
            return Optional.of("an empty key");
        }
        if (key.codePointCount(0, key.length()) > 128) {
            return Optional.of("the key is longer than 128 characters");
        }
        if (key.codePoints().anyMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f))) {
            return Optional.of("the key holds a control character");
        }
        if (key.contains("/")) {
            return Optional.of("the key holds '/', which Batchyard refuses in property keys");
        }
        if (key.equals(".") || key.equals("..")) {
            return Optional.of("the key is a dot segment");
        }
        if (template && secretGroup(p.configGroup())) {
            return Optional.of("config group " + p.configGroup() + " is secret: Batchyard keeps secrets on processes "
                    + "only, not on templates");
        }
        return firstOf(text("config_group", p.configGroup(), 128, true),
                text("prop_value", p.value(), 2048, false), text("description", p.description(), 1028, false));
    }

    /** The fields that differ; a secret's value cannot be read back and so is never compared. */
    public static List<String> changes(Registry.Property want, Registry.Property live) {
        List<String> changed = new ArrayList<>();
        same(changed, "configGroup", want.configGroup(), live.configGroup());
        if (!want.secret()) {
            if (!Objects.equals(want.value(), live.value() == null ? "" : live.value())) {
                changed.add("value");
            }
        }
        same(changed, "description", want.description(), live.description());
        return changed;
    }

    // ---- servers ----

    /** A BDRE server in the registry's terms: empty columns are absent, credentials as BDRE holds them. */
    public static Registry.Server server(Bdre.Server s) {
        return new Registry.Server(null, s.type(), s.name(), orNull(s.metainfo()), orNull(s.loginUser()),
                orNull(s.ip()), orNull(s.loginPassword()), orNull(s.sshPrivateKey()), !blank(s.loginPassword()),
                !blank(s.sshPrivateKey()));
    }

    public static Optional<String> whyRefused(Bdre.Server s) {
        return firstOf(text("server_name", s.name(), 45, true), text("server_type", s.type(), 45, true),
                text("server_metainfo", s.metainfo(), 45, false), text("login_user", s.loginUser(), 45, false),
                text("server_ip", s.ip(), 45, false), text("login_password", s.loginPassword(), 1024, false));
    }

    /**
     * The fields that differ. The registry never shows a stored credential, so a credential counts as changed only
     * when it is there on one side and not on the other.
     */
    public static List<String> changes(Registry.Server want, Registry.Server live) {
        List<String> changed = new ArrayList<>();
        same(changed, "serverType", want.type(), live.type());
        same(changed, "serverMetainfo", want.metainfo(), live.metainfo());
        same(changed, "loginUser", want.loginUser(), live.loginUser());
        same(changed, "serverIp", want.ip(), live.ip());
        if (want.hasLoginPassword() != live.hasLoginPassword()) {
            changed.add("loginPassword");
        }
        if (want.hasSshPrivateKey() != live.hasSshPrivateKey()) {
            changed.add("sshPrivateKey");
        }
        return changed;
    }

    // ---- helpers ----

    /** The registry requires a description with text in it; BDRE's may be empty or spaces: the name stands in. */
    private static String description(String description, String name) {
        return description == null || description.isBlank() ? name : description;
    }

    /** Texts compare with an empty one equal to an absent one (BDRE writes '' where the registry keeps null). */
    private static void same(List<String> changed, String field, String want, String live) {
        if (!Objects.equals(orNull(want), orNull(live))) {
            changed.add(field);
        }
    }

    private static Optional<String> text(String column, String value, int max, boolean required) {
        if (required && blank(value)) {
            return Optional.of(column + " is empty");
        }
        if (value != null && value.codePointCount(0, value.length()) > max) {
            return Optional.of(column + " is longer than " + max + " characters");
        }
        return Optional.empty();
    }

    @SafeVarargs
    private static Optional<String> firstOf(Optional<String>... reasons) {
        for (Optional<String> r : reasons) {
            if (r.isPresent()) {
                return r;
            }
        }
        return Optional.empty();
    }

    private static String orNull(String s) {
        return blank(s) ? null : s;
    }

    static boolean blank(String s) {
        return s == null || s.isEmpty();
    }
}
