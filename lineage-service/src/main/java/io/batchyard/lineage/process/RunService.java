package io.batchyard.lineage.process;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * The recorded runs and step runs, for the features that describe them (OpenLineage). Apart from
 * {@link ProcessLineageService} because that one calls those features back through {@link RunTransitions}, and a
 * service that did both would depend on itself. Every method joins the caller's session: the reads see the lifecycle
 * state the caller's transaction has just written.
 */
@ApplicationScoped
public class RunService {

    private final ProcessLineageRepository lineage;

    public RunService(ProcessLineageRepository lineage) {
        this.lineage = lineage;
    }

    /** The job run of that instance exec id, if it is one. */
    public Uni<Optional<ProcessLineage.Run>> run(long instanceExecId) {
        return lineage.run(instanceExecId);
    }

    /** The step run of that instance exec id, if it is one. */
    public Uni<Optional<ProcessLineage.StepRun>> stepRun(long instanceExecId) {
        return lineage.stepRun(instanceExecId);
    }
}
