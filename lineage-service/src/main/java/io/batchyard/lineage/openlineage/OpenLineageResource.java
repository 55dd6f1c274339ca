package io.batchyard.lineage.openlineage;

import static io.batchyard.lineage.LineageError.UNKNOWN_RUN;

import io.batchyard.lineage.process.ProcessLineageStore;
import io.batchyard.lineage.query.QueryStore;
import io.batchyard.lineage.query.StoredQuery;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** OpenLineage export: a run as one RunEvent with the column lineage of the queries it registered. */
@Path("/openlineage/runs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "openlineage")
public class OpenLineageResource {

    @Inject
    Jdbi jdbi;

    @Inject
    QueryStore queries;

    @Inject
    ProcessLineageStore runs;

    @GET
    @Path("{instanceExecId}")
    @Operation(summary = "OpenLineage RunEvent (with the columnLineage dataset facet) of a run")
    public Map<String, Object> run(@PathParam("instanceExecId") @Min(1) long instanceExecId) {
        return jdbi.withHandle(h -> {
            Optional<ProcessLineageStore.Run> run = runs.run(h, instanceExecId);
            List<StoredQuery> ofRun = queries.ofRun(h, instanceExecId);
            if (run.isEmpty() && ofRun.isEmpty()) {
                throw UNKNOWN_RUN.exception("no run event and no query names instance exec id " + instanceExecId);
            }
            // A run known only from its lifecycle events has no query: its event still answers, with no datasets.
            long process = run.map(ProcessLineageStore.Run::processId).orElseGet(() -> ofRun.get(0).processId());
            List<RunEventBuilder.Relation> relations = h.createQuery("""
                            SELECT r.query_id, s.node_id, st.display_name, s.display_name,
                                   s.node_type_id = 2 AND st.node_type_id = 1,
                                   t.node_id, tt.display_name, t.display_name,
                                   t.node_type_id = 2 AND tt.node_type_id = 1, s.node_type_id = 3,
                                   t.node_type_id = 1
                              FROM lineage_relation r
                              JOIN lineage_node s ON s.node_id = r.src_node_id
                              LEFT JOIN lineage_node st ON st.node_id = s.container_node_id
                              JOIN lineage_node t ON t.node_id = r.target_node_id
                              LEFT JOIN lineage_node tt ON tt.node_id = t.container_node_id
                             WHERE r.query_id = ANY(:queries)""")
                    .bind("queries", ofRun.stream().map(StoredQuery::id).toArray(UUID[]::new))
                    .map((rs, ctx) -> new RunEventBuilder.Relation(rs.getObject(1, UUID.class), rs.getLong(2),
                            rs.getString(3), rs.getString(4), rs.getBoolean(5), rs.getLong(6), rs.getString(7),
                            rs.getString(8), rs.getBoolean(9), rs.getBoolean(10), rs.getBoolean(11)))
                    .list();
            return RunEventBuilder.build(instanceExecId, run.map(ProcessLineageStore.Run::state).orElse(null),
                    run.map(r -> r.endedAt() != null ? r.endedAt() : r.startedAt()).orElse(null), process, relations);
        });
    }
}
