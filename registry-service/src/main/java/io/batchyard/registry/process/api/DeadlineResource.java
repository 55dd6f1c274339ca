package io.batchyard.registry.process.api;

import io.batchyard.api.Roles;
import io.batchyard.registry.process.DeadlineService;
import io.batchyard.registry.process.Deadlines;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A parent's data deadlines; a change is announced as ProcessChanged, and execution-service watches them. */
@RolesAllowed(Roles.VIEWER)
@Path("/processes/{id}/deadlines")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "deadlines")
public class DeadlineResource {

    /** The deadlines as set: grain (default day), optional cron, zone, and ISO-8601 durations. */
    public record DeadlinesRequest(@Size(max = 16) String grain, @Size(max = 120) String cron,
                                   @Size(max = 64) String zone, @Size(max = 32) String startBy,
                                   @Size(max = 32) String finishBy, @Size(max = 32) String maxRuntime) {
    }

    /** The deadlines as stored. */
    public record DeadlinesView(String grain, String cron, String zone, String startBy, String finishBy,
                                String maxRuntime) {
        static DeadlinesView of(Deadlines d) {
            return new DeadlinesView(d.grain(), d.cron(), d.zone(), d.startBy(), d.finishBy(), d.maxRuntime());
        }
    }

    private final DeadlineService deadlines;

    public DeadlineResource(DeadlineService deadlines) {
        this.deadlines = deadlines;
    }

    @GET
    public Uni<DeadlinesView> get(@PathParam("id") long id) {
        return deadlines.get(id).map(DeadlinesView::of);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Operation(summary = "Sets a parent's deadlines: e.g. {\"grain\":\"day\",\"zone\":\"Europe/Berlin\",\"finishBy\":\"PT6H\"}"
            + " = each day's bucket finished by 06:00 local time on the next day")
    public Uni<DeadlinesView> put(@PathParam("id") long id, @Valid @NotNull DeadlinesRequest r) {
        return deadlines.put(Deadlines.checked(id, r.grain(), r.cron(), r.zone(), r.startBy(), r.finishBy(),
                r.maxRuntime())).map(DeadlinesView::of);
    }

    @RolesAllowed(Roles.DEVELOPER)
    @DELETE
    public Uni<Response> delete(@PathParam("id") long id) {
        return deadlines.delete(id).map(done -> Response.noContent().build());
    }
}
