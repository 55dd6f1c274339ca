package io.batchyard.registry.process;

import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.ProcessProperty;
import io.batchyard.events.ProcessServer;
import io.batchyard.registry.server.ServerRow;
import java.util.List;

/**
 * Every conversion between the shapes of a process, in one place: the request bodies of the API, the draft the rules
 * validate, the stored row, the API's answer and the definition registry events carry (which consumers turn into
 * their read model). A new process field is added to those types and mapped here, once.
 */
public final class ProcessMapping {

    private ProcessMapping() {
    }

    /** A create request as the draft the rules validate; defaults: recoverable, workflow type 1 (parent) or 0. */
    static ProcessDraft draft(ProcessApi.CreateProcess r, Long templateId) {
        boolean parent = r.parentProcessId() == null;
        return new ProcessDraft(r.id(), r.name().trim(), r.description(), r.applicationId(), r.processTypeId(),
                r.parentProcessId(), r.canRecover() == null || r.canRecover(),
                r.enqueuingProcessIds() == null ? List.of() : r.enqueuingProcessIds(), r.batchCutPattern(),
                r.nextProcessIds() == null ? List.of() : r.nextProcessIds(),
                r.workflowTypeId() != null ? r.workflowTypeId() : parent ? 1 : 0, templateId, r.serverId());
    }

    /** A merge patch applied to the stored row: absent fields keep their value. */
    static ProcessDraft draft(ProcessApi.PatchProcess p, ProcessRow row) {
        return new ProcessDraft(row.processId(),
                p.name != null ? p.name.trim() : row.name(),
                p.description != null ? p.description : row.description(),
                p.applicationId != null ? p.applicationId : row.applicationId(),
                p.processTypeId != null ? p.processTypeId : row.processTypeId(),
                row.parentProcessId(),
                p.canRecover != null ? p.canRecover : row.canRecover(),
                p.enqueuingProcessIds != null ? p.enqueuingProcessIds : row.enqueuingProcessIds(),
                p.getBatchCutPattern() != null ? p.getBatchCutPattern().orElse(null) : row.batchCutPattern(),
                p.nextProcessIds != null ? p.nextProcessIds : row.nextProcessIds(),
                p.workflowTypeId != null ? p.workflowTypeId : row.workflowTypeId(),
                row.processTemplateId(),
                p.getServerId() != null ? p.getServerId().orElse(null) : row.serverId());
    }

    /** The stored row as the API answers it. */
    public static ProcessApi.Process api(ProcessRow r) {
        return new ProcessApi.Process(r.processId(), r.name(), r.description(), r.applicationId(), r.processTypeId(),
                r.parentProcessId(), r.canRecover(), r.enqueuingProcessIds(), r.batchCutPattern(),
                r.nextProcessIds(), r.deleted(), r.workflowTypeId(), r.processTemplateId(), r.processCode(),
                r.version(), r.createdAt(), r.updatedAt(), r.serverId());
    }

    /** A tree's rows (parent first) as the API answers them. */
    public static ProcessApi.ProcessTree tree(List<ProcessRow> rows) {
        List<ProcessApi.Process> all = rows.stream().map(ProcessMapping::api).toList();
        return new ProcessApi.ProcessTree(all.get(0), all.subList(1, all.size()));
    }

    /**
     * The stored row with its non-secret properties and the server it names (type, name, host and port only: never a
     * credential), as registry events carry it.
     */
    static ProcessDefinition event(ProcessRow r, List<ProcessProperty> properties, ServerRow server) {
        return ProcessDefinition.newBuilder()
                .setProcessId(r.processId())
                .setProcessName(r.name())
                .setDescription(r.description())
                .setBusDomainId(r.applicationId())
                .setProcessTypeId(r.processTypeId())
                .setParentProcessId(r.parentProcessId())
                .setCanRecover(r.canRecover())
                .setEnqueuingProcessIds(r.enqueuingProcessIds())
                .setBatchCutPattern(r.batchCutPattern())
                .setNextProcessIds(r.nextProcessIds())
                .setDeleted(r.deleted())
                .setWorkflowTypeId(r.workflowTypeId())
                .setProcessTemplateId(r.processTemplateId())
                .setProcessCode(r.processCode().toString())
                .setProperties(properties)
                .setServer(server == null ? null : ProcessServer.newBuilder()
                        .setServerId(server.id())
                        .setName(server.serverName())
                        .setType(server.serverType())
                        .setHost(server.serverIp() == null || server.serverIp().isBlank() ? null : server.serverIp())
                        .setPort(server.serverPort())
                        .build())
                .build();
    }
}
