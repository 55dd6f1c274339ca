package io.batchyard.cli.bdre;

import io.batchyard.client.ProblemException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A registry in memory with the behaviour the importer relies on: chosen process ids kept, others generated from
 * 100,000,000; secrets write-only; unique application and server names; a failure injected after a number of writes
 * (an outage halfway through an import).
 */
class InMemoryRegistry implements Registry {

    final Map<Long, Application> applications = new TreeMap<>();
    final Map<Long, Permissions> permissions = new HashMap<>();
    final Map<Long, Process> processes = new TreeMap<>();
    final Map<Long, Map<String, Property>> properties = new HashMap<>();
    final Map<Long, Template> templates = new TreeMap<>();
    final Map<Long, Map<String, Property>> templateProperties = new HashMap<>();
    final Map<Long, Server> servers = new TreeMap<>();
    /** Server credentials as stored (the real registry holds them encrypted). */
    final Map<Long, String> passwords = new HashMap<>();
    int writes;
    /** Writes allowed before every further call answers 503; negative: never. */
    int failAfterWrites = -1;
    private long nextId = 100_000_000L;
    private long nextSmallId = 1;

    InMemoryRegistry() {
        applications.put(1L, new Application(1, "Corporate Security Analytics", "Corporate Security Analytics",
                "bdre@wipro"));
        permissions.put(1L, new Permissions("admin", null, 7, 7, 7));
        servers.put(123461L, new Server(123461L, "hdfs", "localhost", "", null, "127.0.0.1", null, null, false, false));
        nextSmallId = 2;
    }

    private void write() {
        if (failAfterWrites >= 0 && writes >= failAfterWrites) {
            throw new ProblemException(503, null, "Service Unavailable", "injected outage");
        }
        writes++;
    }

    @Override
    public Map<Integer, Integer> processTypes() {
        Map<Integer, Integer> types = new HashMap<>();
        types.put(1, null);
        types.put(2, null);
        types.put(12, 1);
        types.put(23, 1);
        types.put(9, 2);
        types.put(22, 2);
        types.put(25, 2);
        return types;
    }

    @Override
    public Optional<Application> applicationNamed(String name) {
        return applications.values().stream().filter(a -> a.name().equals(name)).findFirst();
    }

    @Override
    public Application createApplication(Application a) {
        write();
        Application created = new Application(nextSmallId++, a.name(), a.description(), a.owner());
        applications.put(created.id(), created);
        permissions.put(created.id(), new Permissions("importer", null, 7, 6, 4));
        return created;
    }

    @Override
    public void updateApplication(Application a) {
        write();
        applications.put(a.id(), a);
    }

    @Override
    public Permissions permissions(long applicationId) {
        return permissions.get(applicationId);
    }

    @Override
    public void setPermissions(long applicationId, Permissions p) {
        write();
        permissions.put(applicationId, p);
    }

    @Override
    public Optional<Process> process(long id) {
        return Optional.ofNullable(processes.get(id));
    }

    @Override
    public List<Process> processes(long applicationId) {
        return processes.values().stream().filter(p -> p.applicationId() == applicationId && !p.deleted()).toList();
    }

    @Override
    public long createProcess(Process p) {
        if (p.id() != null && processes.containsKey(p.id())) {
            throw new ProblemException(409, 210, "Conflict", "process id " + p.id() + " is taken");
        }
        write();
        long id = p.id() != null ? p.id() : nextId++;
        processes.put(id, new Process(id, p.name(), p.description(), p.applicationId(), p.typeId(), p.parentId(),
                p.canRecover(), List.copyOf(p.enqueuing()), p.batchCutPattern(), List.copyOf(p.next()),
                p.workflowTypeId(), false));
        return id;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void patchProcess(long id, Map<String, Object> patch) {
        write();
        Process p = processes.get(id);
        processes.put(id, new Process(id, (String) patch.getOrDefault("name", p.name()),
                (String) patch.getOrDefault("description", p.description()),
                (Long) patch.getOrDefault("applicationId", p.applicationId()),
                (Integer) patch.getOrDefault("processTypeId", p.typeId()), p.parentId(),
                (Boolean) patch.getOrDefault("canRecover", p.canRecover()),
                (List<Long>) patch.getOrDefault("enqueuingProcessIds", p.enqueuing()),
                patch.containsKey("batchCutPattern") ? (String) patch.get("batchCutPattern") : p.batchCutPattern(),
                (List<Long>) patch.getOrDefault("nextProcessIds", p.next()),
                (Integer) patch.getOrDefault("workflowTypeId", p.workflowTypeId()), p.deleted()));
    }

    @Override
    public List<Property> properties(long processId) {
        if (!processes.containsKey(processId)) {
            throw new ProblemException(404, 2, "Resource not found", "process " + processId + " does not exist");
        }
        return readBack(properties.getOrDefault(processId, Map.of()));
    }

    @Override
    public void putProperty(long processId, Property p) {
        write();
        properties.computeIfAbsent(processId, k -> new LinkedHashMap<>()).put(p.key(), p);
    }

    @Override
    public List<Template> templates() {
        return new ArrayList<>(templates.values());
    }

    @Override
    public long createTemplate(Template t) {
        write();
        long id = nextSmallId++;
        templates.put(id, new Template(id, t.name(), t.description(), t.applicationId(), t.typeId(), t.parentId(),
                t.canRecover(), t.batchCutPattern(), List.copyOf(t.next()), t.workflowTypeId()));
        return id;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void patchTemplate(long id, Map<String, Object> patch) {
        write();
        Template t = templates.get(id);
        templates.put(id, new Template(id, t.name(), (String) patch.getOrDefault("description", t.description()),
                t.applicationId(), t.typeId(), t.parentId(), (Boolean) patch.getOrDefault("canRecover", t.canRecover()),
                patch.containsKey("batchCutPattern") ? (String) patch.get("batchCutPattern") : t.batchCutPattern(),
                (List<Long>) patch.getOrDefault("nextTemplateIds", t.next()),
                (Integer) patch.getOrDefault("workflowTypeId", t.workflowTypeId())));
    }

    @Override
    public List<Property> templateProperties(long templateId) {
        if (!templates.containsKey(templateId)) {
            throw new ProblemException(404, 2, "Resource not found", "template " + templateId + " does not exist");
        }
        return readBack(templateProperties.getOrDefault(templateId, Map.of()));
    }

    @Override
    public void putTemplateProperty(long templateId, Property p) {
        write();
        templateProperties.computeIfAbsent(templateId, k -> new LinkedHashMap<>()).put(p.key(), p);
    }

    @Override
    public List<Server> servers() {
        return new ArrayList<>(servers.values());
    }

    @Override
    public long createServer(Server s) {
        write();
        long id = nextSmallId++;
        store(id, s, false);
        return id;
    }

    @Override
    public void updateServer(long id, Server s) {
        write();
        store(id, s, true);
    }

    private void store(long id, Server s, boolean keepAbsent) {
        Server old = servers.get(id);
        String password = s.loginPassword() == null && keepAbsent ? passwords.get(id)
                : (s.loginPassword() == null || s.loginPassword().isEmpty() ? null : s.loginPassword());
        boolean key = s.sshPrivateKey() == null && keepAbsent ? old.hasSshPrivateKey()
                : s.sshPrivateKey() != null && !s.sshPrivateKey().isEmpty();
        if (password == null) {
            passwords.remove(id);
        } else {
            passwords.put(id, password);
        }
        servers.put(id, new Server(id, s.type(), s.name(), s.metainfo(), s.loginUser(), s.ip(), null, null,
                password != null, key));
    }

    private static List<Property> readBack(Map<String, Property> stored) {
        return stored.values().stream().map(p -> BdreMapping.secretGroup(p.configGroup())
                ? new Property(p.configGroup(), p.key(), null, p.description(), true) : p).toList();
    }
}
