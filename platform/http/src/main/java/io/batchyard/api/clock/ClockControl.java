package io.batchyard.api.clock;

import io.batchyard.api.ErrorCode;
import io.smallrye.config.SmallRyeConfig;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * A service's one clock and the rules of its {@code /admin/clock} endpoint, shared so that every service that lets
 * its clock move (queue-service, execution-service) validates moves, refuses the prod profile and answers the same
 * way; each service keeps only its flag, its own problem codes and the build-time switch of {@link ClockEndpoint}.
 */
public class ClockControl {

    /** Exactly one of the two. */
    public record Move(Long offsetSeconds, String instant) {
    }

    /** What the clock reads now and how it is set. */
    public record ClockView(Instant now, boolean moved, long offsetSeconds, Instant fixedAt) {

        public static ClockView of(MovableClock c) {
            MovableClock.Setting s = c.setting();
            return new ClockView(c.instant(), s.moved(), s.offset().toSeconds(), s.fixed());
        }
    }

    /** Farther moves are typing errors, and would overflow date arithmetic downstream. */
    public static final Duration LIMIT = Duration.ofDays(36_500);

    private final MovableClock clock = new MovableClock();
    private final boolean movable;
    private final ErrorCode notMovable;
    private final ErrorCode invalidMove;

    /**
     * @param notMovable the service's code for a call while the flag is off
     * @param invalidMove the service's code for a move that is not exactly one valid field within {@link #LIMIT}
     */
    public ClockControl(boolean movable, ErrorCode notMovable, ErrorCode invalidMove) {
        this.movable = movable;
        this.notMovable = notMovable;
        this.invalidMove = invalidMove;
    }

    /** A movable clock in production would let an admin call bend every deadline: the service does not start. */
    public void refuseInProduction() {
        if (movable && ConfigProvider.getConfig().unwrap(SmallRyeConfig.class).getProfiles().contains("prod")) {
            throw new IllegalStateException("batchyard.clock.movable=true is refused in the prod profile");
        }
    }

    public boolean movable() {
        return movable;
    }

    public MovableClock clock() {
        return clock;
    }

    public Instant instant() {
        return clock.instant();
    }

    /** Now, as a UTC timestamp for SQL parameters. */
    public OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    public LocalDate today(ZoneId zone) {
        return LocalDate.ofInstant(clock.instant(), zone);
    }

    /** Wall-clock time in {@code zone}, for rules written in local time (bucket periods). */
    public LocalDateTime localNow(ZoneId zone) {
        return LocalDateTime.ofInstant(clock.instant(), zone);
    }

    /** {@code GET /admin/clock}. */
    public ClockView view() {
        return ClockView.of(movableClock());
    }

    /** {@code PUT /admin/clock}. */
    public ClockView move(Move move) {
        MovableClock c = movableClock();
        if (move == null || (move.offsetSeconds() == null) == (move.instant() == null)) {
            throw invalidMove.exception("body: {\"offsetSeconds\": n} or {\"instant\": \"2026-11-20T23:59:00Z\"}");
        }
        if (move.offsetSeconds() != null) {
            // not Math.abs: it leaves Long.MIN_VALUE negative
            if (move.offsetSeconds() > LIMIT.toSeconds() || move.offsetSeconds() < -LIMIT.toSeconds()) {
                throw invalidMove.exception("offsetSeconds beyond +-" + LIMIT.toSeconds());
            }
            c.shift(Duration.ofSeconds(move.offsetSeconds()));
        } else {
            Instant at;
            try {
                at = Instant.parse(move.instant());
            } catch (DateTimeException e) {
                throw invalidMove.exception("instant is not an ISO-8601 instant: " + move.instant());
            }
            if (Duration.between(Instant.now(), at).abs().compareTo(LIMIT) > 0) {
                throw invalidMove.exception("instant more than " + LIMIT.toDays() + " days from now");
            }
            c.fix(at);
        }
        return ClockView.of(c);
    }

    /** {@code DELETE /admin/clock}. */
    public ClockView reset() {
        MovableClock c = movableClock();
        c.reset();
        return ClockView.of(c);
    }

    private MovableClock movableClock() {
        if (!movable) {
            throw notMovable.exception("set batchyard.clock.movable=true (outside the prod profile) to move it");
        }
        return clock;
    }
}
