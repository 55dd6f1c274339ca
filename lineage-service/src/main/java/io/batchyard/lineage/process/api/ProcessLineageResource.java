package io.batchyard.lineage.process.api;

import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.lineage.process.ProcessDotWriter;
import io.batchyard.lineage.process.ProcessLineageService;
import io.batchyard.lineage.render.GraphFormat;
import io.batchyard.lineage.render.Graphviz;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Process lineage: which run produced a batch, which runs consumed it, and the processes around a process. */
@RolesAllowed(Roles.VIEWER)
@Path("/lineage")
@Produces({"application/json", GraphFormat.DOT_MEDIA_TYPE, GraphFormat.SVG_MEDIA_TYPE})
@Tag(name = "process lineage")
public class ProcessLineageResource {

    private final ProcessLineageService lineage;
    private final Graphviz graphviz;
    private final SecurityIdentity identity;

    public ProcessLineageResource(ProcessLineageService lineage, Graphviz graphviz, SecurityIdentity identity) {
        this.lineage = lineage;
        this.graphviz = graphviz;
        this.identity = identity;
    }

    @GET
    @Path("batches/{batchId}")
    @Operation(summary = "Lineage of one batch: its producing run, the source batches it consumed, its consumers")
    public Uni<Response> batch(@PathParam("batchId") @Min(1) long batchId, @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        return f.respond(lineage.batch(Caller.of(identity), batchId), ProcessDotWriter::write, graphviz);
    }

    @GET
    @Path("processes/{processId}")
    @Operation(summary = "A process's runs and the processes it takes batches from and hands batches to")
    public Uni<Response> process(@PathParam("processId") @Min(1) long processId,
                                 @QueryParam("runs") @DefaultValue("20") @Min(1) @Max(500) int runs,
                                 @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        return f.respond(lineage.process(Caller.of(identity), processId, runs), ProcessDotWriter::write, graphviz);
    }
}
