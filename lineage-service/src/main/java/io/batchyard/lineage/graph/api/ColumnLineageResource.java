package io.batchyard.lineage.graph.api;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.lineage.graph.ColumnDotWriter;
import io.batchyard.lineage.graph.ColumnLineageService;
import io.batchyard.lineage.graph.Direction;
import io.batchyard.lineage.render.GraphFormat;
import io.batchyard.lineage.render.Graphviz;
import io.batchyard.lineage.schema.TableName;
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
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Column lineage: up/downstream of a column, a table with its neighbours, and the impact of changing a table. */
@RolesAllowed(Roles.VIEWER)
@Path("/lineage")
@Produces({"application/json", GraphFormat.DOT_MEDIA_TYPE, GraphFormat.SVG_MEDIA_TYPE})
@Tag(name = "column lineage")
public class ColumnLineageResource {

    private final ColumnLineageService lineage;
    private final Graphviz graphviz;
    private final SecurityIdentity identity;

    public ColumnLineageResource(ColumnLineageService lineage, Graphviz graphviz, SecurityIdentity identity) {
        this.lineage = lineage;
        this.graphviz = graphviz;
        this.identity = identity;
    }

    @GET
    @Path("columns")
    @Operation(summary = "Columns upstream or downstream of table.column, to a depth (function hops are free)")
    public Uni<Response> column(@QueryParam("table") String table, @QueryParam("column") String column,
                                @QueryParam("direction") @DefaultValue("both") String direction,
                                @QueryParam("depth") @DefaultValue("3") @Min(1) @Max(50) int depth,
                                @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        TableName name = TableName.parse(table);
        String columnName = TableName.column(column);
        Direction d = direction(direction);
        return f.respond(lineage.column(Caller.of(identity), name, columnName, d, depth), ColumnDotWriter::write,
                graphviz);
    }

    @GET
    @Path("tables/{table}")
    @Operation(summary = "A table with all its columns (idle ones included) and the columns up/downstream, to a depth")
    public Uni<Response> table(@PathParam("table") String table,
                               @QueryParam("direction") @DefaultValue("both") String direction,
                               @QueryParam("depth") @DefaultValue("1") @Min(1) @Max(50) int depth,
                               @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        TableName name = TableName.parse(table);
        Direction d = direction(direction);
        return f.respond(lineage.table(Caller.of(identity), name, d, depth), ColumnDotWriter::write, graphviz);
    }

    @GET
    @Path("tables/{table}/impact")
    @Operation(summary = "Everything downstream of a table: columns, tables, processes and queries that depend on it")
    public Uni<Response> impact(@PathParam("table") String table, @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        TableName name = TableName.parse(table);
        return f.respond(lineage.impact(Caller.of(identity), name), impact -> ColumnDotWriter.write(impact.graph()),
                graphviz);
    }

    private static Direction direction(String value) {
        try {
            return Direction.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.exception("direction must be upstream, downstream or both");
        }
    }
}
