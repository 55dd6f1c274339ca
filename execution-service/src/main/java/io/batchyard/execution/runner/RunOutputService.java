package io.batchyard.execution.runner;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.lifecycle.RunRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The runner's run output: batches of a command's lines written, and a run's lines read back. */
@ApplicationScoped
public class RunOutputService {

    private final RunOutputRepository log;
    private final RunRepository runs;

    public RunOutputService(RunOutputRepository log, RunRepository runs) {
        this.log = log;
        this.runs = runs;
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
    public Uni<Page<RunOutputRepository.Line>> lines(long instanceExecId, boolean withSteps, PageRequest page) {
        return runs.find(instanceExecId).invoke(run -> run.orElseThrow(() ->
                        ExecutionError.UNKNOWN_RUN.exception("no run with instance exec id " + instanceExecId)))
                .chain(() -> log.lines(instanceExecId, withSteps, page.limit(), page.offset()))
                .chain(lines -> log.count(instanceExecId, withSteps).map(total -> Page.of(lines, total, page)));
    }
}
