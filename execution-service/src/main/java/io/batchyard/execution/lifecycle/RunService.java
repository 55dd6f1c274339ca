package io.batchyard.execution.lifecycle;

import static io.batchyard.api.CommonErrors.NOT_FOUND;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Reads of runs (instance executions) and their transitions, each in one session. */
@ApplicationScoped
public class RunService {

    /** A parent's run with the runs of its steps. */
    public record RunWithSteps(Run run, List<Run> steps) {
    }

    private final RunRepository runs;

    public RunService(RunRepository runs) {
        this.runs = runs;
    }

    @WithSession
    public Uni<Page<Run>> list(Long processId, Integer state, PageRequest page) {
        return runs.list(processId, state, page.limit(), page.offset())
                .chain(items -> runs.count(processId, state).map(total -> Page.of(items, total, page)));
    }

    @WithSession
    public Uni<RunWithSteps> get(long id) {
        return existing(id).chain(run -> runs.stepRunsOf(id).map(steps -> new RunWithSteps(run, steps)));
    }

    @WithSession
    public Uni<List<RunRepository.Transition>> history(long id) {
        return existing(id).chain(() -> runs.history(id));
    }

    private Uni<Run> existing(long id) {
        return runs.find(id).map(run -> run.orElseThrow(() -> NOT_FOUND.exception("run " + id + " does not exist")));
    }
}
