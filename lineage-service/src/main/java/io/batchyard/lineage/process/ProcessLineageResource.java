package io.batchyard.lineage.process;

import static io.batchyard.lineage.LineageError.UNKNOWN_BATCH;
import static io.batchyard.lineage.LineageError.UNKNOWN_PROCESS;

import io.batchyard.lineage.api.GraphFormat;
import io.batchyard.lineage.api.Graphviz;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** Process lineage: which run produced a batch, which runs consumed it, and the processes around a process. */
@Path("/lineage")
@Produces({"application/json", GraphFormat.DOT_MEDIA_TYPE, GraphFormat.SVG_MEDIA_TYPE})
@Tag(name = "process lineage")
public class ProcessLineageResource {

    public record SourceBatch(long sourceBatchId, ProcessLineageStore.Run producedBy) {
    }

    /**
     * Spec 3.8 "lineage by batch" for {@code batchId} as a target batch ({@code sources} with the runs that produced
     * them), plus where the batch itself came from and went.
     */
    public record BatchLineage(long batchId, ProcessLineageStore.Run producedBy, List<SourceBatch> sources,
                               List<ProcessLineageStore.Enqueue> enqueuedTo, List<ProcessLineageStore.Run> consumedBy) {
    }

    public record ProcessLineage(long processId, List<ProcessLineageStore.Run> runs,
                                 List<ProcessLineageStore.ProcessEdge> upstream,
                                 List<ProcessLineageStore.ProcessEdge> downstream) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    ProcessLineageStore store;

    @Inject
    Graphviz graphviz;

    @GET
    @Path("batches/{batchId}")
    @Operation(summary = "Lineage of one batch: its producing run, the source batches it consumed, its consumers")
    public Response batch(@PathParam("batchId") @Min(1) long batchId, @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        BatchLineage lineage = jdbi.withHandle(h -> {
            Optional<ProcessLineageStore.Run> producer = store.producerOf(h, batchId);
            List<SourceBatch> sources = store.sourcesOf(h, batchId).stream()
                    .map(s -> new SourceBatch(s, store.producerOf(h, s).orElse(null))).toList();
            List<ProcessLineageStore.Enqueue> enqueues = store.enqueues(h, batchId);
            List<ProcessLineageStore.Run> consumers = store.consumersOf(h, batchId);
            if (producer.isEmpty() && sources.isEmpty() && enqueues.isEmpty() && consumers.isEmpty()) {
                throw UNKNOWN_BATCH.exception("Invalid Target BatchId: no run, queue or archive names batch " + batchId);
            }
            return new BatchLineage(batchId, producer.orElse(null), sources, enqueues, consumers);
        });
        return f.respond(lineage, () -> ProcessDotWriter.write(lineage.producedBy() == null ? List.of()
                : List.of(lineage.producedBy().processId()), batchEdges(lineage)), graphviz);
    }

    @GET
    @Path("processes/{processId}")
    @Operation(summary = "A process's runs and the processes it takes batches from and hands batches to")
    public Response process(@PathParam("processId") @Min(1) long processId,
                            @QueryParam("runs") @DefaultValue("20") @Min(1) @Max(500) int runs,
                            @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        ProcessLineage lineage = jdbi.withHandle(h -> {
            if (!store.knows(h, processId)) {
                throw UNKNOWN_PROCESS.exception("no run or batch event has named process " + processId);
            }
            return new ProcessLineage(processId, store.runsOf(h, processId, runs), store.edges(h, processId, true),
                    store.edges(h, processId, false));
        });
        List<ProcessLineageStore.ProcessEdge> all = new ArrayList<>(lineage.upstream());
        all.addAll(lineage.downstream());
        return f.respond(lineage, () -> ProcessDotWriter.write(List.of(processId), all), graphviz);
    }

    private static List<ProcessLineageStore.ProcessEdge> batchEdges(BatchLineage b) {
        List<ProcessLineageStore.ProcessEdge> edges = new ArrayList<>();
        if (b.producedBy() != null) {
            for (SourceBatch s : b.sources()) {
                edges.add(new ProcessLineageStore.ProcessEdge(s.producedBy() == null ? null : s.producedBy().processId(),
                        b.producedBy().processId(), null, s.sourceBatchId(),
                        s.producedBy() == null ? null : s.producedBy().instanceExecId(), b.producedBy().instanceExecId(), true));
            }
        }
        Long producer = b.producedBy() == null ? null : b.producedBy().processId();
        Long producerRun = b.producedBy() == null ? null : b.producedBy().instanceExecId();
        for (ProcessLineageStore.Run consumer : b.consumedBy()) {
            edges.add(new ProcessLineageStore.ProcessEdge(producer, consumer.processId(), null, b.batchId(), producerRun,
                    consumer.instanceExecId(), true));
        }
        for (ProcessLineageStore.Enqueue e : b.enqueuedTo()) {
            if (b.consumedBy().isEmpty()) {
                edges.add(new ProcessLineageStore.ProcessEdge(e.sourceProcessId(), e.consumerProcessId(),
                        e.consumerProcessId(), b.batchId(), producerRun, null, false));
            }
        }
        return edges;
    }
}
