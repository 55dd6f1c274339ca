package io.batchyard.execution.lifecycle;

import static io.batchyard.api.CommonErrors.NOT_FOUND;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.recovery.LastRecoverableStep;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads of runs (instance executions) and their transitions, each in one session. A run is seen by whoever may read
 * its process's application (a step's run: its parent's); to anyone else it does not exist, and lists leave it out.
 */
@ApplicationScoped
public class RunService {

    /** A parent's run with the runs of its steps. */
    public record RunWithSteps(Run run, List<Run> steps) {
    }

    private final RunRepository runs;
    private final ProcessPermission permission;

    public RunService(RunRepository runs, ProcessPermission permission) {
        this.runs = runs;
        this.permission = permission;
    }

    /** The runs {@code caller} may read, filtered in the query so that the page and its total agree. */
    @WithSession
    public Uni<Page<Run>> list(Caller caller, Long processId, Integer state, PageRequest page) {
        return permission.readable(caller).chain(applications -> runs.list(processId, state, applications,
                        page.limit(), page.offset())
                .chain(items -> runs.count(processId, state, applications).map(total -> Page.of(items, total, page))));
    }

    @WithSession
    public Uni<RunWithSteps> get(Caller caller, long id) {
        return readable(caller, id).chain(run -> runs.stepRunsOf(id).map(steps -> new RunWithSteps(run, steps)));
    }

    @WithSession
    public Uni<List<Transition>> history(Caller caller, long id) {
        return readable(caller, id).chain(() -> runs.history(id));
    }

    /** The run, if it exists; runs in the caller's session. */
    public Uni<Optional<Run>> find(long id) {
        return runs.find(id);
    }

    /**
     * Each process's median duration (ms) over its last {@code recent} successful runs, for estimates; a process that
     * never succeeded is absent. In the caller's session.
     */
    public Uni<Map<Long, Long>> medianDurations(Collection<Long> processIds, int recent) {
        return runs.medianDurations(processIds, recent);
    }

    /** The batch marking (a stand-alone run's bucket) of each run that has one; in the caller's session. */
    public Uni<Map<Long, String>> markings(Collection<Long> runIds) {
        return runs.markings(runIds);
    }

    /** The parent's step runs since its last successful run; in the caller's session. */
    public Uni<List<LastRecoverableStep.StepRun>> stepRunsSinceLastSuccess(long parentId) {
        return runs.stepRunsSinceLastSuccess(parentId);
    }

    /** The run, if it exists and {@code caller} may read its process's application; else 404 (code 2) for both. */
    private Uni<Run> readable(Caller caller, long id) {
        Supplier<ApiException> unknown = () -> NOT_FOUND.exception("run " + id + " does not exist");
        return runs.find(id).map(run -> run.orElseThrow(unknown))
                .call(run -> permission.require(caller, run.processId(), Permission.READ, unknown));
    }
}
