package io.batchyard.registry.pipeline.api;

import io.batchyard.api.Roles;
import io.batchyard.registry.pipeline.PipelineApi;
import io.batchyard.registry.pipeline.PipelineService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Pipelines as code: an application's plan (from {@code batchyard plan}/{@code apply}) applied all at once. */
@RolesAllowed(Roles.DEVELOPER)
@Path("/pipelines")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "pipelines")
public class PipelineResource {

    private final PipelineService pipelines;

    public PipelineResource(PipelineService pipelines) {
        this.pipelines = pipelines;
    }

    @POST
    @Path("apply")
    @Operation(summary = "Apply an application's plan in one transaction; 409, code 227, naming the object that changed"
            + " since the plan, and then nothing is applied")
    public Uni<PipelineApi.Applied> apply(@Valid @NotNull PipelineApi.ApplyRequest request) {
        return pipelines.apply(request);
    }
}
