package io.batchyard.execution.deployment.api;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.deployment.Deployment;
import io.batchyard.execution.deployment.DeploymentService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The deployment queue: requesting a parent's deployment, the deployment calls, and reading deployments. */
@RolesAllowed(Roles.VIEWER)
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "deployments")
public class DeploymentResource {

    /** TermDeploy's optional body: why the deployment failed. */
    public record TermDeployRequest(@Size(max = 2000) String text) {
    }

    private final DeploymentService deployments;
    private final SecurityIdentity identity;

    public DeploymentResource(DeploymentService deployments, SecurityIdentity identity) {
        this.deployments = deployments;
        this.identity = identity;
    }

    private Caller caller() {
        return Caller.of(identity);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("processes/{pid}/deployments")
    @Consumes(MediaType.WILDCARD) // no body
    @Operation(summary = "Queue a deployment of a parent process (NOT_STARTED); a poller runs its deployment script")
    public Uni<Response> request(@PathParam("pid") long pid) {
        return deployments.request(caller(), pid).map(d -> Response.status(201).entity(d).build());
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("deployments/{id}/init")
    @Consumes(MediaType.WILDCARD) // no body
    @Operation(summary = "InitDeploy: a picked deployment starts running")
    public Uni<Deployment> init(@PathParam("id") long id) {
        return deployments.init(caller(), id);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("deployments/{id}/halt")
    @Consumes(MediaType.WILDCARD) // no body
    @Operation(summary = "HaltDeploy: a running deployment succeeded")
    public Uni<Deployment> halt(@PathParam("id") long id) {
        return deployments.halt(caller(), id);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("deployments/{id}/term")
    @Operation(summary = "TermDeploy: a running deployment failed; the optional body {\"text\"} says why")
    public Uni<Deployment> term(@PathParam("id") long id, @Valid TermDeployRequest request) {
        return deployments.term(caller(), id, request == null ? null : request.text());
    }

    @GET
    @Path("deployments/{id}")
    public Uni<Deployment> get(@PathParam("id") long id) {
        return deployments.get(caller(), id);
    }

    @GET
    @Path("processes/{pid}/deployments")
    @Operation(summary = "A process's deployments, newest first; status is a name such as RUNNING or its number 1-5")
    public Uni<Page<Deployment>> list(@PathParam("pid") long pid, @QueryParam("status") String status,
                                      @Valid @BeanParam PageRequest page) {
        Deployment.Status state = status == null || status.isBlank() ? null : Deployment.Status.parse(status)
                .orElseThrow(() -> CommonErrors.INVALID_REQUEST.exception("status must be one of "
                        + Arrays.toString(Deployment.Status.values()) + " or its number 1-5"));
        return deployments.list(caller(), pid, state, page);
    }

    @GET
    @Path("processes/{pid}/deployments/latest")
    @Operation(summary = "A process's newest deployment; a parent is triggered automatically only when it succeeded")
    public Uni<Deployment> latest(@PathParam("pid") long pid) {
        return deployments.requireLatest(caller(), pid);
    }
}
