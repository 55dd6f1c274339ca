package io.batchyard.api.clock;

import io.batchyard.api.Roles;
import io.batchyard.api.clock.ClockControl.ClockView;
import io.batchyard.api.clock.ClockControl.Move;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET/PUT/DELETE /admin/clock} of a service whose clock may move: each service extends this with its
 * {@code @Path} and its {@link ClockControl}; the role is here so that no subclass can forget it.
 */
@RolesAllowed(Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public abstract class ClockEndpoint {

    protected abstract ClockControl control();

    @GET
    public ClockView get() {
        return control().view();
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public ClockView move(Move move) {
        return control().move(move);
    }

    @DELETE
    public ClockView reset() {
        return control().reset();
    }
}
