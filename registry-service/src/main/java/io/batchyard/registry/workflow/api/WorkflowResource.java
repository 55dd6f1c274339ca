package io.batchyard.registry.workflow.api;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Roles;
import io.batchyard.registry.workflow.WorkflowService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Workflow generation from metadata: Oozie XML, an Airflow DAG file, Graphviz DOT, or SVG rendered by Graphviz. */
@RolesAllowed(Roles.VIEWER)
@Path("/processes/{id}/workflow")
@Tag(name = "workflows")
public class WorkflowResource {

    private final WorkflowService workflows;

    public WorkflowResource(WorkflowService workflows) {
        this.workflows = workflows;
    }

    @GET
    @Operation(summary = "Generate the workflow of a parent process (format=oozie|airflow|dot|svg)")
    public Uni<Response> generate(@PathParam("id") long id, @QueryParam("format") @DefaultValue("oozie") String format) {
        WorkflowService.Format f;
        try {
            f = WorkflowService.Format.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.exception("format must be one of oozie, airflow, dot, svg; got '" + format + "'");
        }
        String type = switch (f) {
            case OOZIE -> "application/xml";
            case DOT -> "text/vnd.graphviz";
            case SVG -> "image/svg+xml";
            case AIRFLOW -> "text/x-python";
        };
        String filename = "workflow-" + id + switch (f) {
            case OOZIE -> ".xml";
            case AIRFLOW -> ".py";
            default -> "." + f.name().toLowerCase(Locale.ROOT);
        };
        return workflows.generate(id, f).map(body -> Response.ok(body, type)
                .header("Content-Disposition", "inline; filename=\"" + filename + "\"")
                .build());
    }
}
