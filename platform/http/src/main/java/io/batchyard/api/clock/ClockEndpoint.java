package io.batchyard.api.clock;

import io.batchyard.api.Roles;
import io.batchyard.api.clock.ClockControl.ClockView;
import io.batchyard.api.clock.ClockControl.Move;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET/PUT/DELETE /admin/clock} of a service whose clock may move, over that service's {@link ClockControl}
 * bean. Only a service that has such a bean sets the build-time flag {@value #FLAG}; every other service built with
 * this module has no such endpoint (and no unsatisfied injection point).
 */
@IfBuildProperty(name = ClockEndpoint.FLAG, stringValue = "true")
@RolesAllowed(Roles.ADMIN)
@Path("/admin/clock")
@Tag(name = "admin")
@Produces(MediaType.APPLICATION_JSON)
public class ClockEndpoint {

    /** Set to true in the application.properties of a service that has a {@link ClockControl} bean. */
    public static final String FLAG = "batchyard.api.clock-endpoint";

    private final ClockControl control;

    public ClockEndpoint(ClockControl control) {
        this.control = control;
    }

    @GET
    public ClockView get() {
        return control.view();
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public ClockView move(Move move) {
        return control.move(move);
    }

    @DELETE
    public ClockView reset() {
        return control.reset();
    }
}
