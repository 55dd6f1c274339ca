package io.batchyard.api.clock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one clock a service's time-dependent rules read (delays, timeouts, end of day). It runs as the system clock
 * until it is moved: by an offset (time keeps running, shifted) or to a fixed instant (time stands still there).
 * Moving it is for tests and rehearsals; whether a service lets anyone move it is that service's configuration.
 * Thread-safe: a move is one atomic swap, so a reader sees either the old or the new setting, never a mix.
 */
public final class MovableClock extends Clock {

    /** How the clock is set now: {@code fixed} non-null means it stands at that instant, else real time + offset. */
    public record Setting(Duration offset, Instant fixed) {

        public static final Setting REAL = new Setting(Duration.ZERO, null);

        public boolean moved() {
            return fixed != null || !offset.isZero();
        }
    }

    private final Clock base;
    private final AtomicReference<Setting> setting = new AtomicReference<>(Setting.REAL);

    public MovableClock() {
        this(Clock.systemUTC());
    }

    /** Over another base clock (tests of this class). */
    public MovableClock(Clock base) {
        this.base = base;
    }

    @Override
    public Instant instant() {
        Setting s = setting.get();
        return s.fixed() != null ? s.fixed() : base.instant().plus(s.offset());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        // Callers ask for instant() and convert to their zone themselves; a zoned copy would stop following moves.
        if (ZoneOffset.UTC.equals(zone)) {
            return this;
        }
        throw new UnsupportedOperationException("a movable clock is UTC; convert its instant to " + zone);
    }

    public Setting setting() {
        return setting.get();
    }

    /** Real time shifted by {@code offset} from now on. */
    public void shift(Duration offset) {
        base.instant().plus(offset); // an offset leaving the instant range fails here, not in every later reader
        setting.set(new Setting(offset, null));
    }

    /** Stands at {@code instant} until moved again. */
    public void fix(Instant instant) {
        setting.set(new Setting(Duration.ZERO, instant));
    }

    /** Back to real time. */
    public void reset() {
        setting.set(Setting.REAL);
    }
}
