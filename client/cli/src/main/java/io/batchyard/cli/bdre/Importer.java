package io.batchyard.cli.bdre;

import io.batchyard.client.ProblemException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Carries a BDRE snapshot into the registry, object by object, in the order the registry's references need: servers,
 * applications (bus domains), parent processes, steps, the links between them, properties, the applications'
 * permissions, then templates the same way. Every object is first compared with what the registry holds (found by a
 * kept id, by a recorded BDRE id, or by its unique name), so a second run writes nothing and a run after a failure
 * writes only what is missing. In a dry run nothing is written; objects that a real run would create get negative
 * stand-in ids so that what depends on them is reported too.
 *
 * <p>How an object is found again: an application by its name and a server by its name (both unique in the
 * registry); a process by its BDRE id where that lies in the registry's range for chosen ids, else by its name and
 * parent within its application and the property {@value BdreMapping#ORIGIN_GROUP}/{@value BdreMapping#ORIGIN_KEY}
 * holding its BDRE id (written right after the process is created; a process of that name and parent without the
 * property is adopted, which finishes an import that stopped in between); a template by its name and parent template
 * within its application.
 */
public final class Importer {

    private final Registry registry;
    private final Report report;
    private final boolean dryRun;
    private long standIn;
    private Map<Integer, Integer> types;

    /** What the import knows of one tree node (a process or a template) once its id is resolved. */
    private static final class Node<L> {
        Long id;          // the registry's id; negative while it is still to be created
        L live;           // what the registry holds, null when it is to be created
        boolean created;  // created by this run
        boolean unmarked; // a process found by name whose BDRE id is not recorded yet
    }

    public Importer(Registry registry, boolean dryRun) {
        this.registry = registry;
        this.dryRun = dryRun;
        this.report = new Report(dryRun);
    }

    public Report run(Bdre.Snapshot snapshot) {
        types = registry.processTypes();
        servers(snapshot.servers());
        Map<Long, Long> apps = applications(snapshot.busDomains());
        processes(snapshot, apps);
        permissions(snapshot, apps);
        templates(snapshot, apps);
        return report;
    }

    // ---- servers ----

    private void servers(List<Bdre.Server> servers) {
        Map<String, Registry.Server> live = registry.servers().stream()
                .collect(Collectors.toMap(Registry.Server::name, s -> s, (a, b) -> a));
        for (Bdre.Server s : servers) {
            String object = "server '" + s.name() + "' (BDRE server " + s.id() + ")";
            Optional<String> why = BdreMapping.whyRefused(s);
            if (why.isPresent()) {
                report.add(Report.Kind.REFUSE, object, why.get());
                continue;
            }
            Registry.Server want = BdreMapping.server(s);
            Registry.Server found = live.get(s.name());
            if (found == null) {
                long[] id = {0};
                if (write(Report.Kind.CREATE, object, null, () -> id[0] = registry.createServer(want))) {
                    report.map("server", s.id(), dryRun ? null : id[0], null);
                }
                continue;
            }
            List<String> changed = BdreMapping.changes(want, found);
            // a credential is sent only where its presence changes: the registry keeps an absent one, "" removes it
            Registry.Server body = new Registry.Server(found.id(), want.type(), want.name(), want.metainfo(),
                    want.loginUser(), want.ip(), credential(changed, "loginPassword", want.loginPassword()),
                    credential(changed, "sshPrivateKey", want.sshPrivateKey()), false, false);
            write(changed.isEmpty() ? Report.Kind.NO_CHANGE : Report.Kind.CHANGE, object, String.join(", ", changed),
                    () -> registry.updateServer(found.id(), body));
            report.map("server", s.id(), found.id(), null);
        }
    }

    private static String credential(List<String> changed, String field, String wanted) {
        if (!changed.contains(field)) {
            return null;
        }
        return wanted == null ? "" : wanted;
    }

    // ---- applications and their permissions ----

    private Map<Long, Long> applications(List<Bdre.BusDomain> domains) {
        Map<Long, Long> apps = new HashMap<>();
        for (Bdre.BusDomain d : domains) {
            String object = "application '" + d.name() + "' (BDRE bus domain " + d.id() + ")";
            Optional<String> why = BdreMapping.whyRefused(d);
            if (why.isPresent()) {
                report.add(Report.Kind.REFUSE, object, why.get());
                continue;
            }
            Registry.Application want = BdreMapping.application(d);
            Optional<Registry.Application> found = registry.applicationNamed(d.name());
            if (found.isEmpty()) {
                long[] id = {0};
                if (write(Report.Kind.CREATE, object, null, () -> id[0] = registry.createApplication(want).id())) {
                    apps.put(d.id(), dryRun ? standIn() : id[0]);
                    report.map("bus domain", d.id(), dryRun ? null : id[0], null);
                }
                continue;
            }
            long id = found.get().id();
            List<String> changed = BdreMapping.changes(want, found.get());
            write(changed.isEmpty() ? Report.Kind.NO_CHANGE : Report.Kind.CHANGE, object, String.join(", ", changed),
                    () -> registry.updateApplication(new Registry.Application(id, want.name(), want.description(),
                            want.owner())));
            apps.put(d.id(), id);
            report.map("bus domain", d.id(), id, null);
        }
        return apps;
    }

    private void permissions(Bdre.Snapshot s, Map<Long, Long> apps) {
        for (Bdre.BusDomain d : s.busDomains()) {
            Long app = apps.get(d.id());
            List<Bdre.Process> parents = s.processes().stream()
                    .filter(p -> p.busDomainId() == d.id() && p.parentId() == null && !p.deleted()).toList();
            Optional<Registry.Permissions> want = BdreMapping.permissions(parents);
            if (app == null || want.isEmpty()) {
                continue;
            }
            String object = "permissions of application '" + d.name() + "'";
            String narrowed = BdreMapping.permissionsDiffer(parents)
                    ? " (BDRE's processes differ: what every one of them grants)" : "";
            List<String> changed = app < 0 ? List.of("owner, group and others from BDRE's process permissions")
                    : BdreMapping.changes(want.get(), registry.permissions(app));
            write(changed.isEmpty() ? Report.Kind.NO_CHANGE : Report.Kind.CHANGE, object,
                    changed.isEmpty() ? "" : String.join(", ", changed) + narrowed,
                    () -> registry.setPermissions(app, want.get()));
        }
    }

    // ---- processes ----

    private void processes(Bdre.Snapshot s, Map<Long, Long> apps) {
        Map<Long, Bdre.Process> bdre = s.processes().stream()
                .collect(Collectors.toMap(Bdre.Process::id, p -> p, (a, b) -> a, LinkedHashMap::new));
        List<Bdre.Process> ordered = parentsFirst(s.processes(), Bdre.Process::parentId, Bdre.Process::deleted,
                p -> report.add(Report.Kind.SKIP, processName(p), "deleted in BDRE"));
        Map<Long, List<Registry.Process>> appProcesses = new HashMap<>();
        Map<Long, List<Bdre.Property>> props = byOwner(s.properties());
        new TreeImport<Bdre.Process, Registry.Process>() {
            @Override
            long id(Bdre.Process p) {
                return p.id();
            }

            @Override
            String name(Bdre.Process p) {
                return processName(p);
            }

            @Override
            List<Long> next(Bdre.Process p) {
                return p.next();
            }

            @Override
            List<Long> liveNext(Registry.Process live) {
                return live.next();
            }

            @Override
            Optional<String> resolve(Bdre.Process p) {
                return Importer.this.resolve(p, bdre, apps, nodes, appProcesses);
            }

            @Override
            boolean write(Bdre.Process p) {
                return writeProcess(p, apps, nodes);
            }

            @Override
            void link(long id, List<Long> next) {
                registry.patchProcess(id, Map.of("nextProcessIds", next));
            }

            @Override
            void properties(Bdre.Process p, long id, boolean exists) {
                Importer.this.properties(props.getOrDefault(p.id(), List.of()), "process " + shownId(p), false,
                        () -> exists ? registry.properties(id) : List.of(), prop -> registry.putProperty(id, prop));
            }
        }.run(ordered);
    }

    /** Finds the registry process a BDRE process is (or will be); answers why it cannot be imported, if it cannot. */
    private Optional<String> resolve(Bdre.Process p, Map<Long, Bdre.Process> bdre, Map<Long, Long> apps,
                                     Map<Long, Node<Registry.Process>> nodes,
                                     Map<Long, List<Registry.Process>> appProcesses) {
        Long app = apps.get(p.busDomainId());
        if (app == null) {
            return Optional.of("its bus domain " + p.busDomainId() + " is not imported");
        }
        Integer parentType = null;
        Long parentId = null;
        if (p.parentId() != null) {
            Bdre.Process parent = bdre.get(p.parentId());
            if (parent == null || parent.deleted()) {
                return Optional.of("its parent " + p.parentId() + " is not a live BDRE process");
            }
            if (!nodes.containsKey(p.parentId())) {
                return Optional.of("its parent " + p.parentId() + " is refused");
            }
            parentType = parent.typeId();
            parentId = nodes.get(p.parentId()).id;
        }
        Optional<String> why = BdreMapping.whyRefused(p.name(), p.description(), p.batchCutPattern(), p.typeId(),
                parentType, p.parentId() != null, types);
        if (why.isPresent()) {
            return why;
        }
        Node<Registry.Process> n = new Node<>();
        if (BdreMapping.keepsId(p.id())) {
            Optional<Registry.Process> found = registry.process(p.id());
            if (found.isPresent()) {
                Registry.Process l = found.get();
                if (l.deleted()) {
                    return Optional.of("Batchyard's process " + p.id() + " is deleted; its id cannot be used again");
                }
                if (!l.name().equals(p.name())) {
                    return Optional.of("id " + p.id() + " is Batchyard's process '" + l.name() + "', another process");
                }
                if (!Objects.equals(l.parentId(), parentId)) {
                    return Optional.of("Batchyard's process " + p.id() + " has parent " + l.parentId()
                            + ", a process never changes its parent");
                }
                n.live = l;
            }
            n.id = p.id();
        } else {
            Long parent = parentId;
            Optional<Registry.Process> found = app < 0 || (parent != null && parent < 0) ? Optional.empty()
                    : recorded(p, appProcesses.computeIfAbsent(app, registry::processes).stream()
                            .filter(l -> l.name().equals(p.name()) && Objects.equals(l.parentId(), parent)).toList(),
                            n);
            n.live = found.orElse(null);
            n.id = found.map(Registry.Process::id).orElseGet(this::standIn);
        }
        nodes.put(p.id(), n);
        return Optional.empty();
    }

    /** Of the candidates, the one recording this BDRE id, else one recording none (created, then interrupted). */
    private Optional<Registry.Process> recorded(Bdre.Process p, List<Registry.Process> candidates,
                                                Node<Registry.Process> node) {
        Registry.Process unmarked = null;
        for (Registry.Process c : candidates) {
            Optional<Registry.Property> origin = registry.properties(c.id()).stream()
                    .filter(prop -> prop.key().equals(BdreMapping.ORIGIN_KEY)).findFirst();
            if (origin.isPresent() && String.valueOf(p.id()).equals(origin.get().value())) {
                return Optional.of(c);
            }
            if (origin.isEmpty() && unmarked == null) {
                unmarked = c;
            }
        }
        node.unmarked = unmarked != null;
        return Optional.ofNullable(unmarked);
    }

    /** Creates or patches one process (links come later, once every process exists); false when refused. */
    private boolean writeProcess(Bdre.Process p, Map<Long, Long> apps, Map<Long, Node<Registry.Process>> nodes) {
        Node<Registry.Process> n = nodes.get(p.id());
        String object = processName(p);
        if (p.parentId() != null && !nodes.containsKey(p.parentId())) {
            report.add(Report.Kind.REFUSE, object, "its parent " + p.parentId() + " is refused");
            return false;
        }
        List<Long> enqueuing = new ArrayList<>();
        for (long e : p.parentId() == null ? List.<Long>of() : p.enqueuing()) {
            Node<Registry.Process> upstream = nodes.get(e);
            if (upstream != null) {
                enqueuing.add(upstream.id);
            } else if (BdreMapping.keepsId(e) && registry.process(e).filter(l -> !l.deleted()).isPresent()) {
                enqueuing.add(e);
            } else {
                report.add(Report.Kind.REFUSE, object, "its enqueuing process " + e
                        + " is neither imported nor in Batchyard");
                return false;
            }
        }
        for (long next : p.next()) {
            if (!nodes.containsKey(next)) {
                report.add(Report.Kind.REFUSE, "link from " + object + " to BDRE process " + next,
                        "process " + next + " is refused or not imported");
            }
        }
        Long parent = p.parentId() == null ? null : nodes.get(p.parentId()).id;
        Registry.Process want = BdreMapping.process(p, BdreMapping.keepsId(p.id()) ? p.id() : null,
                apps.get(p.busDomainId()), parent, enqueuing, mapped(p.next(), nodes));
        if (n.live == null) {
            String detail = BdreMapping.keepsId(p.id()) ? null : "BDRE id outside 1-99,999,999: Batchyard chooses "
                    + "the id and the property " + BdreMapping.ORIGIN_GROUP + "/" + BdreMapping.ORIGIN_KEY + " keeps "
                    + "BDRE's";
            boolean ok = write(Report.Kind.CREATE, object, detail, () -> {
                long id = registry.createProcess(new Registry.Process(want.id(), want.name(), want.description(),
                        want.applicationId(), want.typeId(), want.parentId(), want.canRecover(), want.enqueuing(),
                        want.batchCutPattern(), List.of(), want.workflowTypeId(), false));
                n.id = id;
                n.created = true;
                if (!BdreMapping.keepsId(p.id())) {
                    recordOrigin(id, p);
                }
            });
            if (ok && !BdreMapping.keepsId(p.id())) {
                report.map("process", p.id(), dryRun ? null : n.id, "outside 1-99,999,999");
            }
            return ok;
        }
        List<String> changed = BdreMapping.changes(want, n.live);
        Map<String, Object> patch = new HashMap<>();
        for (String field : changed) {
            switch (field) {
                case "name" -> patch.put(field, want.name());
                case "description" -> patch.put(field, want.description());
                case "applicationId" -> patch.put(field, want.applicationId());
                case "processTypeId" -> patch.put(field, want.typeId());
                case "canRecover" -> patch.put(field, want.canRecover());
                case "enqueuingProcessIds" -> patch.put(field, want.enqueuing());
                case "batchCutPattern" -> patch.put(field, want.batchCutPattern());
                case "workflowTypeId" -> patch.put(field, want.workflowTypeId());
                default -> { } // nextProcessIds: linked once every process exists
            }
        }
        if (!BdreMapping.keepsId(p.id())) {
            report.map("process", p.id(), n.id, "outside 1-99,999,999");
        }
        if (n.unmarked) {
            changed.add("property " + BdreMapping.ORIGIN_GROUP + "/" + BdreMapping.ORIGIN_KEY);
        }
        return write(changed.isEmpty() ? Report.Kind.NO_CHANGE : Report.Kind.CHANGE, object,
                String.join(", ", changed), () -> {
                    if (!patch.isEmpty()) {
                        registry.patchProcess(n.id, patch);
                    }
                    if (n.unmarked) {
                        recordOrigin(n.id, p);
                    }
                });
    }

    /** Records a BDRE id the registry could not keep on the process it became, so that a re-run finds it. */
    private void recordOrigin(long id, Bdre.Process p) {
        registry.putProperty(id, new Registry.Property(BdreMapping.ORIGIN_GROUP, BdreMapping.ORIGIN_KEY,
                String.valueOf(p.id()), "the id of this process in BDRE", false));
    }

    private static String processName(Bdre.Process p) {
        return (p.parentId() == null ? "process " : "step ") + shownId(p) + " '" + p.name() + "'";
    }

    private static String shownId(Bdre.Process p) {
        return BdreMapping.keepsId(p.id()) ? String.valueOf(p.id()) : "(BDRE " + p.id() + ")";
    }

    // ---- templates ----

    private void templates(Bdre.Snapshot s, Map<Long, Long> apps) {
        Map<Long, Bdre.Template> bdre = s.templates().stream()
                .collect(Collectors.toMap(Bdre.Template::id, t -> t, (a, b) -> a));
        List<Bdre.Template> ordered = parentsFirst(s.templates().stream().filter(t -> {
            if (t.id() == 0) {
                report.add(Report.Kind.SKIP, templateName(t), "BDRE's built-in default template");
            }
            return t.id() != 0;
        }).toList(), Bdre.Template::parentId, Bdre.Template::deleted,
                t -> report.add(Report.Kind.SKIP, templateName(t), "deleted in BDRE"));
        List<Registry.Template> live = ordered.isEmpty() ? List.of() : registry.templates();
        Map<Long, List<Bdre.Property>> props = byOwner(s.templateProperties());
        new TreeImport<Bdre.Template, Registry.Template>() {
            @Override
            long id(Bdre.Template t) {
                return t.id();
            }

            @Override
            String name(Bdre.Template t) {
                return templateName(t);
            }

            @Override
            List<Long> next(Bdre.Template t) {
                return t.next();
            }

            @Override
            List<Long> liveNext(Registry.Template l) {
                return l.next();
            }

            @Override
            Optional<String> resolve(Bdre.Template t) {
                return resolveTemplate(t, bdre, apps, nodes, live);
            }

            @Override
            boolean write(Bdre.Template t) {
                return writeTemplate(t, apps, nodes);
            }

            @Override
            void link(long id, List<Long> next) {
                registry.patchTemplate(id, Map.of("nextTemplateIds", next));
            }

            @Override
            void properties(Bdre.Template t, long id, boolean exists) {
                Importer.this.properties(props.getOrDefault(t.id(), List.of()), "template '" + t.name() + "'", true,
                        () -> exists ? registry.templateProperties(id) : List.of(),
                        prop -> registry.putTemplateProperty(id, prop));
            }
        }.run(ordered);
    }

    private Optional<String> resolveTemplate(Bdre.Template t, Map<Long, Bdre.Template> bdre, Map<Long, Long> apps,
                                             Map<Long, Node<Registry.Template>> nodes, List<Registry.Template> live) {
        Long app = apps.get(t.busDomainId());
        if (app == null) {
            return Optional.of("its bus domain " + t.busDomainId() + " is not imported");
        }
        Integer parentType = null;
        Long parentId = null;
        if (t.parentId() != null) {
            Bdre.Template parent = bdre.get(t.parentId());
            if (parent == null || !nodes.containsKey(t.parentId())) {
                return Optional.of("its parent template " + t.parentId() + " is refused or not in BDRE");
            }
            parentType = parent.typeId();
            parentId = nodes.get(t.parentId()).id;
        }
        Optional<String> why = BdreMapping.whyRefused(t.name(), t.description(), t.batchCutPattern(), t.typeId(),
                parentType, t.parentId() != null, types);
        if (why.isPresent()) {
            return why;
        }
        Long parent = parentId;
        List<Registry.Template> same = live.stream().filter(l -> l.applicationId() == app
                && Objects.equals(l.parentId(), parent) && l.name().equals(t.name())).toList();
        if (same.size() > 1) {
            return Optional.of("Batchyard has " + same.size() + " templates of this name and parent in the "
                    + "application; which one it is cannot be told");
        }
        Node<Registry.Template> n = new Node<>();
        n.live = same.isEmpty() ? null : same.get(0);
        n.id = same.isEmpty() ? standIn() : same.get(0).id();
        if (n.live != null && n.live.typeId() != t.typeId()) {
            return Optional.of("Batchyard's template " + n.id + " has process type " + n.live.typeId()
                    + ", and a template's type cannot be changed");
        }
        nodes.put(t.id(), n);
        return Optional.empty();
    }

    private boolean writeTemplate(Bdre.Template t, Map<Long, Long> apps, Map<Long, Node<Registry.Template>> nodes) {
        Node<Registry.Template> n = nodes.get(t.id());
        String object = templateName(t);
        if (t.parentId() != null && !nodes.containsKey(t.parentId())) {
            report.add(Report.Kind.REFUSE, object, "its parent template " + t.parentId() + " is refused");
            return false;
        }
        Long parent = t.parentId() == null ? null : nodes.get(t.parentId()).id;
        Registry.Template want = BdreMapping.template(t, apps.get(t.busDomainId()), parent, mapped(t.next(), nodes));
        boolean ok;
        if (n.live == null) {
            ok = write(Report.Kind.CREATE, object, null, () -> {
                n.id = registry.createTemplate(new Registry.Template(null, want.name(), want.description(),
                        want.applicationId(), want.typeId(), want.parentId(), want.canRecover(),
                        want.batchCutPattern(), List.of(), want.workflowTypeId()));
                n.created = true;
            });
        } else {
            List<String> changed = BdreMapping.changes(want, n.live);
            Map<String, Object> patch = new HashMap<>();
            for (String field : changed) {
                switch (field) {
                    case "description" -> patch.put(field, want.description());
                    case "canRecover" -> patch.put(field, want.canRecover());
                    case "batchCutPattern" -> patch.put(field, want.batchCutPattern());
                    case "workflowTypeId" -> patch.put(field, want.workflowTypeId());
                    default -> { } // nextTemplateIds: linked once every template exists
                }
            }
            ok = write(changed.isEmpty() ? Report.Kind.NO_CHANGE : Report.Kind.CHANGE, object,
                    String.join(", ", changed), () -> {
                        if (!patch.isEmpty()) {
                            registry.patchTemplate(n.id, patch);
                        }
                    });
        }
        if (ok) {
            report.map("template", t.id(), dryRun && n.id < 0 ? null : n.id, null);
        }
        return ok;
    }

    private static String templateName(Bdre.Template t) {
        return "template '" + t.name() + "' (BDRE template " + t.id() + ")";
    }

    // ---- properties (of processes and of templates) ----

    private void properties(List<Bdre.Property> wanted, String owner, boolean template,
                            java.util.function.Supplier<List<Registry.Property>> live,
                            java.util.function.Consumer<Registry.Property> put) {
        if (wanted.isEmpty()) {
            return;
        }
        Map<String, Registry.Property> found = live.get().stream()
                .collect(Collectors.toMap(Registry.Property::key, p -> p, (a, b) -> a));
        for (Bdre.Property p : wanted) {
            String object = "property '" + p.key() + "' of " + owner;
            Optional<String> why = BdreMapping.whyRefused(p, template);
            if (why.isPresent()) {
                report.add(Report.Kind.REFUSE, object, why.get());
                continue;
            }
            Registry.Property want = BdreMapping.property(p);
            Registry.Property l = found.get(p.key());
            if (l == null) {
                write(Report.Kind.CREATE, object, null, () -> put.accept(want));
                continue;
            }
            List<String> changed = BdreMapping.changes(want, l);
            String detail = changed.isEmpty() && want.secret()
                    ? "secret, kept (Batchyard never shows a secret's value to compare it)" : String.join(", ", changed);
            write(changed.isEmpty() ? Report.Kind.NO_CHANGE : Report.Kind.CHANGE, object, detail,
                    () -> put.accept(want));
        }
    }

    // ---- shared ----

    /**
     * The passes a tree of processes or of templates goes through: find each node in the registry (parents first,
     * since a step is found under its parent), create or change each without its links, link them once every node
     * exists (a link names nodes that may have been created after it), then their properties.
     */
    private abstract class TreeImport<T, L> {
        final Map<Long, Node<L>> nodes = new LinkedHashMap<>();

        abstract long id(T node);

        abstract String name(T node);

        abstract List<Long> next(T node);

        abstract List<Long> liveNext(L live);

        abstract Optional<String> resolve(T node);

        abstract boolean write(T node);

        abstract void link(long id, List<Long> next);

        /** {@code exists}: false while the node is still to be created (a dry run), so it has no properties yet. */
        abstract void properties(T node, long id, boolean exists);

        void run(List<T> ordered) {
            for (T t : ordered) {
                resolve(t).ifPresent(why -> report.add(Report.Kind.REFUSE, name(t), why));
            }
            for (T t : ordered) {
                if (nodes.containsKey(id(t)) && !write(t)) {
                    nodes.remove(id(t));
                }
            }
            for (T t : ordered) {
                Node<L> n = nodes.get(id(t));
                if (n == null || dryRun || n.id < 0) {
                    continue;
                }
                List<Long> next = mapped(next(t), nodes);
                List<Long> current = n.created ? List.of() : liveNext(n.live);
                if (!new HashSet<>(next).equals(new HashSet<>(current))) {
                    linkOrRefuse("links of " + name(t), () -> link(n.id, next));
                }
            }
            for (T t : ordered) {
                Node<L> n = nodes.get(id(t));
                if (n != null) {
                    properties(t, n.id, n.live != null || n.created);
                }
            }
        }
    }

    private static Map<Long, List<Bdre.Property>> byOwner(List<Bdre.Property> properties) {
        return properties.stream()
                .collect(Collectors.groupingBy(Bdre.Property::ownerId, LinkedHashMap::new, Collectors.toList()));
    }

    /** Live nodes in the order parents, then children; deleted ones are handed to {@code skipped}. */
    private static <T> List<T> parentsFirst(List<T> all, Function<T, Long> parent, Function<T, Boolean> deleted,
                                            java.util.function.Consumer<T> skipped) {
        all.stream().filter(deleted::apply).forEach(skipped);
        return Stream.concat(all.stream().filter(t -> !deleted.apply(t) && parent.apply(t) == null),
                all.stream().filter(t -> !deleted.apply(t) && parent.apply(t) != null)).toList();
    }

    /** BDRE ids as the registry's, leaving out those not imported. */
    private static List<Long> mapped(List<Long> bdreIds, Map<Long, ? extends Node<?>> nodes) {
        List<Long> out = new ArrayList<>();
        for (Long id : bdreIds) {
            Node<?> n = nodes.get(id);
            if (n != null) {
                out.add(n.id);
            }
        }
        return out;
    }

    private void linkOrRefuse(String object, Runnable patch) {
        try {
            patch.run();
        } catch (ProblemException e) {
            if (e.unavailable()) {
                throw e;
            }
            report.add(Report.Kind.REFUSE, object, "Batchyard refused it: " + e.getMessage());
        }
    }

    /**
     * Reports the object and, outside a dry run, writes it; a refusal by the registry is reported instead and the
     * import goes on with the next object (an unavailable registry ends the import: a re-run finishes it).
     */
    private boolean write(Report.Kind kind, String object, String detail, Runnable writer) {
        if (kind == Report.Kind.NO_CHANGE || dryRun) {
            report.add(kind, object, detail);
            return true;
        }
        try {
            writer.run();
        } catch (ProblemException e) {
            if (e.unavailable()) {
                throw e;
            }
            report.add(Report.Kind.REFUSE, object, "Batchyard refused it: " + e.getMessage());
            return false;
        }
        report.add(kind, object, detail);
        return true;
    }

    private long standIn() {
        return --standIn;
    }
}
