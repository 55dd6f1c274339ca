package io.batchyard.queue.clock.api;

import static io.batchyard.queue.clock.ClockError.CLOCK_NOT_MOVABLE;
import static io.batchyard.queue.clock.ClockError.INVALID_CLOCK_SETTING;

import io.batchyard.api.Roles;
import io.batchyard.api.clock.MovableClock;
import io.batchyard.queue.clock.ServiceClock;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Moves the service's clock (only with batchyard.clock.movable on; never in prod). */
@RolesAllowed(Roles.ADMIN)
@Path("/admin/clock")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
public class ClockResource {

    /** Exactly one of the two. */
    public record Move(Long offsetSeconds, String instant) {
    }

    /** What the clock reads now and how it is set. */
    public record ClockView(Instant now, boolean moved, long offsetSeconds, Instant fixedAt) {

        static ClockView of(MovableClock c) {
            MovableClock.Setting s = c.setting();
            return new ClockView(c.instant(), s.moved(), s.offset().toSeconds(), s.fixed());
        }
    }

    /** Farther moves are typing errors, and would overflow date arithmetic downstream. */
    private static final Duration LIMIT = Duration.ofDays(36_500);

    private final ServiceClock clock;

    public ClockResource(ServiceClock clock) {
        this.clock = clock;
    }

    @GET
    public ClockView get() {
        return ClockView.of(movable());
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public ClockView move(Move move) {
        MovableClock c = movable();
        if (move == null || (move.offsetSeconds() == null) == (move.instant() == null)) {
            throw INVALID_CLOCK_SETTING.exception("body: {\"offsetSeconds\": n} or {\"instant\": \"2026-11-20T23:59:00Z\"}");
        }
        if (move.offsetSeconds() != null) {
            // not Math.abs: it leaves Long.MIN_VALUE negative
            if (move.offsetSeconds() > LIMIT.toSeconds() || move.offsetSeconds() < -LIMIT.toSeconds()) {
                throw INVALID_CLOCK_SETTING.exception("offsetSeconds beyond +-" + LIMIT.toSeconds());
            }
            c.shift(Duration.ofSeconds(move.offsetSeconds()));
        } else {
            Instant at;
            try {
                at = Instant.parse(move.instant());
            } catch (DateTimeException e) {
                throw INVALID_CLOCK_SETTING.exception("instant is not an ISO-8601 instant: " + move.instant());
            }
            if (Duration.between(Instant.now(), at).abs().compareTo(LIMIT) > 0) {
                throw INVALID_CLOCK_SETTING.exception("instant more than " + LIMIT.toDays() + " days from now");
            }
            c.fix(at);
        }
        return ClockView.of(c);
    }

    @DELETE
    public ClockView reset() {
        MovableClock c = movable();
        c.reset();
        return ClockView.of(c);
    }

    private MovableClock movable() {
        if (!clock.movable()) {
            throw CLOCK_NOT_MOVABLE.exception("set batchyard.clock.movable=true (outside the prod profile) to move it");
        }
        return clock.clock();
    }
}
