package io.batchyard.execution.processlog;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.function.Supplier;

/**
 * The process log: a job records key/value execution statistics under its process (parent or step), e.g. the last
 * check-column value an incremental import read, and asks for the newest value on its next run.
 *
 * <p>Any process of the read model may log, parent or step, since the jobs that log are often steps. Writing is a
 * job's act, so it needs what a lifecycle call needs: execute permission on the process's application, and a process
 * that is not deleted. Reading needs read permission on it; a deleted process's entries stay readable. To a caller
 * without read the process is unknown (412), as it is to everyone when the registry never announced it.
 */
@ApplicationScoped
public class ProcessLogService {

    /** What a job records; {@code instanceRef} and {@code addTs} are optional. */
    public record NewEntry(String category, String messageId, String message, Long instanceRef, OffsetDateTime addTs) {
    }

    private final ProcessLogRepository log;
    private final ProcessDefinitionRepository definitions;
    private final ProcessPermission permission;

    public ProcessLogService(ProcessLogRepository log, ProcessDefinitionRepository definitions,
                             ProcessPermission permission) {
        this.log = log;
        this.definitions = definitions;
        this.permission = permission;
    }

    @WithTransaction
    public Uni<ProcessLogEntry> add(Caller caller, long processId, NewEntry e) {
        return known(caller, processId, Permission.EXECUTE).invoke(process -> {
            if (process.deleted()) {
                throw ExecutionError.DELETED_PROCESS.exception("process " + processId
                        + " is deleted: nothing more is logged for it");
            }
        }).chain(() -> log.insert(processId, e.category(), e.messageId(), e.message(), e.instanceRef(), e.addTs()));
    }

    @WithSession
    public Uni<ProcessLogEntry> get(Caller caller, long processId, long logId) {
        return known(caller, processId, Permission.READ).chain(() -> log.find(processId, logId))
                .map(found -> found.orElseThrow(() -> ExecutionError.NO_PROCESS_LOG_ENTRY.exception("process "
                        + processId + " has no log entry " + logId)));
    }

    @WithSession
    public Uni<Page<ProcessLogEntry>> list(Caller caller, ProcessLogRepository.Filter filter, PageRequest page) {
        return known(caller, filter.processId(), Permission.READ)
                .chain(() -> log.list(filter, page.limit(), page.offset()))
                .chain(items -> log.count(filter).map(total -> Page.of(items, total, page)));
    }

    /** The newest entry of a message in a category: the last value an incremental import recorded. */
    @WithSession
    public Uni<ProcessLogEntry> last(Caller caller, long processId, String messageId, String category) {
        return known(caller, processId, Permission.READ).chain(() -> log.last(processId, messageId, category))
                .map(found -> found.orElseThrow(() -> ExecutionError.NO_PROCESS_LOG_ENTRY.exception("process "
                        + processId + " has no entry of message '" + messageId + "' in category '" + category + "'")));
    }

    /** The entries of a message with its highest instance_ref (empty when none has one). */
    @WithSession
    public Uni<List<ProcessLogEntry>> lastInstance(Caller caller, long processId, String messageId) {
        return known(caller, processId, Permission.READ).chain(() -> log.withLastInstanceRef(processId, messageId));
    }

    /** The process, known here and with {@code needed} on its application for {@code caller}; 412 or 14 otherwise. */
    private Uni<ProcessDefinition> known(Caller caller, long processId, Permission needed) {
        Supplier<ApiException> unknown = () -> ExecutionError.UNKNOWN_PROCESS.exception("process " + processId
                + " is not known");
        return definitions.find(processId).map(found -> found.orElseThrow(unknown))
                .call(() -> permission.require(caller, processId, needed, unknown));
    }
}
