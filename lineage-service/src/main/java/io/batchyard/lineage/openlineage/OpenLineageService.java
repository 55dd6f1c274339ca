package io.batchyard.lineage.openlineage;

import static io.batchyard.lineage.LineageError.UNKNOWN_RUN;

import io.batchyard.lineage.process.ProcessLineage;
import io.batchyard.lineage.process.ProcessLineageRepository;
import io.batchyard.lineage.query.QueryRepository;
import io.batchyard.lineage.query.StoredQuery;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/** OpenLineage export: a run as one RunEvent with the column lineage of the queries it registered. */
@ApplicationScoped
public class OpenLineageService {

    private final ProcessLineageRepository runs;
    private final QueryRepository queries;
    private final OpenLineageRepository relations;

    public OpenLineageService(ProcessLineageRepository runs, QueryRepository queries, OpenLineageRepository relations) {
        this.runs = runs;
        this.queries = queries;
        this.relations = relations;
    }

    @WithSession
    public Uni<Map<String, Object>> runEvent(long instanceExecId) {
        return runs.run(instanceExecId).chain(run -> queries.ofRun(instanceExecId).chain(ofRun -> {
            if (run.isEmpty() && ofRun.isEmpty()) {
                throw UNKNOWN_RUN.exception("no run event and no query names instance exec id " + instanceExecId);
            }
            // A run known only from its lifecycle events has no query: its event still answers, with no datasets.
            long process = run.map(ProcessLineage.Run::processId).orElseGet(() -> ofRun.get(0).processId());
            return relations.relations(ofRun.stream().map(StoredQuery::id).toList())
                    .map(found -> RunEventBuilder.build(instanceExecId, run.map(ProcessLineage.Run::state).orElse(null),
                            run.map(r -> r.endedAt() != null ? r.endedAt() : r.startedAt()).orElse(null), process,
                            found));
        }));
    }
}
