package io.batchyard.execution.clock.api;

import io.batchyard.api.Roles;
import io.batchyard.api.clock.ClockControl;
import io.batchyard.api.clock.ClockEndpoint;
import io.batchyard.execution.clock.ServiceClock;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Moves the service's clock (only with batchyard.clock.movable on; never in prod); see ClockEndpoint. */
@RolesAllowed(Roles.ADMIN)
@Path("/admin/clock")
@Tag(name = "admin")
public class ClockResource extends ClockEndpoint {

    private final ServiceClock clock;

    public ClockResource(ServiceClock clock) {
        this.clock = clock;
    }

    @Override
    protected ClockControl control() {
        return clock;
    }
}
