package io.batchyard.execution.runner;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.runs.RunLifecycle;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.function.Supplier;

/**
 * The runner's run output: batches of a command's lines written, and a run's lines read back by whoever may read the
 * run's process (what a job prints is its application's business; to anyone else the run does not exist).
 */
@ApplicationScoped
public class RunOutputService {

    private final RunOutputRepository log;
    private final RunLifecycle runs;
    private final ProcessPermission permission;

    public RunOutputService(RunOutputRepository log, RunLifecycle runs, ProcessPermission permission) {
        this.log = log;
        this.runs = runs;
        this.permission = permission;
    }

    /** A per-run writer that batches lines, so a chatty command costs one insert per batch, not per line. */
    public RunOutputWriter writer(long instanceExecId, long processId) {
        return new RunOutputWriter(this, instanceExecId, processId);
    }

    @WithTransaction
    Uni<Void> append(long instanceExecId, long processId, List<RunOutputRepository.Pending> lines) {
        return log.insert(instanceExecId, processId, lines);
    }

    @WithSession
    public Uni<Page<RunOutputLine>> lines(Caller caller, long instanceExecId, boolean withSteps,
                                                      PageRequest page) {
        Supplier<ApiException> unknown = () -> ExecutionError.UNKNOWN_RUN.exception("no run with instance exec id "
                + instanceExecId);
        return runs.processOfRun(instanceExecId).map(process -> process.orElseThrow(unknown))
                .call(process -> permission.require(caller, process, Permission.READ, unknown))
                .chain(() -> log.lines(instanceExecId, withSteps, page.limit(), page.offset()))
                .chain(lines -> log.count(instanceExecId, withSteps).map(total -> Page.of(lines, total, page)));
    }
}
