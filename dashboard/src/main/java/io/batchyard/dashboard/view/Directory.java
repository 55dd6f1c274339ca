package io.batchyard.dashboard.view;

import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.registry.ApplicationChanged;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names for the ids the lifecycle events carry, learnt from the registry's and lineage-service's public topics: each
 * process's name, application and parent, which parents the stand-alone runner runs, each application's name and
 * permissions (owner user, owner group and their permission types: who may see its processes' rows), and the tables
 * each process's registered queries write. Bounded like the rest of the view; not thread-safe on its own
 * ({@link DashboardView} calls it under its lock).
 */
final class Directory {

    static final int MAX_PROCESSES = 10_000;
    static final int MAX_APPLICATIONS = 1_000;
    static final int MAX_TABLES_PER_PROCESS = 20;
    /** BDRE's workflow type of a parent run by Batchyard's own stand-alone runner rather than by Oozie. */
    static final int STANDALONE_WORKFLOW = 2;

    public record Application(long applicationId, String name) {
    }

    /** A parent process as the page lists it: what the "why", lineage and filter panels offer to choose from. */
    public record Parent(long processId, String name, long applicationId, boolean standalone, List<String> tables) {
    }

    private record Process(long processId, String name, long applicationId, Long parentProcessId, int workflowTypeId) {
    }

    private final Map<Long, Process> processes = new LinkedHashMap<>();
    private final Map<Long, Application> applications = new LinkedHashMap<>();
    /** Each application's permissions as the registry last announced them; absent: nobody but administrators reads. */
    private final Map<Long, ApplicationAccess> access = new LinkedHashMap<>();
    /** Tables written (then read) by each process's parsed queries, newest last. */
    private final Map<Long, Set<String>> tables = new LinkedHashMap<>();

    /** Folds a registry or lineage event in; answers whether it was one this directory keeps. */
    boolean apply(Object event) {
        if (event instanceof ProcessRegistered e) {
            tree(e.getParent(), e.getSteps());
        } else if (event instanceof ProcessChanged e) {
            tree(e.getParent(), e.getSteps());
        } else if (event instanceof ProcessDeleted e) {
            e.getDeletedProcessIds().forEach(processes::remove);
        } else if (event instanceof ApplicationChanged e) {
            applications.remove(e.getApplicationId());
            access.remove(e.getApplicationId());
            if (!e.getDeleted()) {
                applications.put(e.getApplicationId(), new Application(e.getApplicationId(), e.getName()));
                DashboardView.trim(applications, MAX_APPLICATIONS);
                access(e);
            }
        } else if (event instanceof LineageParsed e) {
            Set<String> known = tables.computeIfAbsent(e.getProcessId(), id -> new LinkedHashSet<>());
            e.getOutputTables().forEach(known::add);
            e.getInputTables().forEach(known::add);
            while (known.size() > MAX_TABLES_PER_PROCESS) {
                known.remove(known.iterator().next());
            }
            DashboardView.trim(tables, MAX_PROCESSES);
        } else {
            return false;
        }
        return true;
    }

    private void access(ApplicationChanged e) {
        try {
            access.put(e.getApplicationId(), new ApplicationAccess(e.getApplicationId(), e.getOwnerUser(),
                    e.getOwnerGroup(), e.getOwnerPermission(), e.getGroupPermission(), e.getOthersPermission()));
            DashboardView.trim(access, MAX_APPLICATIONS);
        } catch (IllegalArgumentException notAType) {
            // Permission types the rule does not know: the application stays readable by administrators only.
        }
    }

    private void tree(ProcessDefinition parent, List<ProcessDefinition> steps) {
        put(parent);
        steps.forEach(this::put);
        DashboardView.trim(processes, MAX_PROCESSES);
    }

    private void put(ProcessDefinition p) {
        if (p.getDeleted()) {
            processes.remove(p.getProcessId());
            return;
        }
        // re-inserted so that the most recently registered or changed processes are the last to be trimmed
        processes.remove(p.getProcessId());
        processes.put(p.getProcessId(), new Process(p.getProcessId(), p.getProcessName(), p.getBusDomainId(),
                p.getParentProcessId(), p.getWorkflowTypeId()));
    }

    String name(long processId) {
        Process p = processes.get(processId);
        return p == null ? null : p.name();
    }

    /**
     * The application of a process; a step's is its parent's (its own while the parent is not known here). Null while
     * the registry's event has not been read.
     */
    Long applicationOf(long processId) {
        Process p = processes.get(processId);
        if (p == null) {
            return null;
        }
        Process parent = p.parentProcessId() == null ? null : processes.get(p.parentProcessId());
        return parent != null ? parent.applicationId() : p.applicationId();
    }

    /** The parent whose run consumes a step's batches (a parent is its own); null while the process is not known. */
    Long parentOf(long processId) {
        Process p = processes.get(processId);
        return p == null ? null : p.parentProcessId() == null ? p.processId() : p.parentProcessId();
    }

    /** The applications' permissions as now known, a copy the caller may keep. */
    Map<Long, ApplicationAccess> access() {
        return Map.copyOf(access);
    }

    List<Application> applications() {
        return applications.values().stream().sorted(Comparator.comparing(Application::name)).toList();
    }

    /** The newest {@code max} parents, each with the tables its own and its steps' queries touch. */
    List<Parent> parents(int max) {
        Map<Long, Set<String>> touched = new LinkedHashMap<>();
        for (Process p : processes.values()) {
            long parent = p.parentProcessId() == null ? p.processId() : p.parentProcessId();
            touched.computeIfAbsent(parent, id -> new LinkedHashSet<>())
                    .addAll(tables.getOrDefault(p.processId(), Set.of()));
        }
        List<Parent> out = new ArrayList<>();
        for (Process p : processes.values()) {
            if (p.parentProcessId() == null) {
                out.add(new Parent(p.processId(), p.name(), p.applicationId(),
                        p.workflowTypeId() == STANDALONE_WORKFLOW, List.copyOf(touched.get(p.processId()))));
            }
        }
        out.sort(Comparator.comparingLong(Parent::processId).reversed());
        return out.size() > max ? List.copyOf(out.subList(0, max)) : out;
    }
}
