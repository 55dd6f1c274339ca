package io.batchyard.queue.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.api.ApiException;
import io.batchyard.api.clock.ClockControl;
import io.batchyard.api.clock.MovableClock;
import io.batchyard.api.clock.ClockEndpoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The clock's rules without the service: moves, reset, and the flag that guards the endpoint. */
class ClockTest {

    private static final Instant T = Instant.parse("2026-01-15T14:59:59Z");

    @Test
    void anOffsetKeepsTimeRunningAFixedInstantStopsItAndResetGoesBackToTheBase() {
        MovableClock clock = new MovableClock(Clock.fixed(T, ZoneOffset.UTC));
        assertThat(clock.instant()).isEqualTo(T);
        assertThat(clock.setting().moved()).isFalse();
        clock.shift(Duration.ofHours(2));
        assertThat(clock.instant()).isEqualTo(T.plusSeconds(7200));
        clock.fix(Instant.EPOCH);
        assertThat(clock.instant()).isEqualTo(Instant.EPOCH);
        assertThat(clock.setting().moved()).isTrue();
        clock.reset();
        assertThat(clock.instant()).isEqualTo(T);
        assertThatThrownBy(() -> clock.withZone(ZoneId.of("Asia/Tokyo"))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void todayIsTheDateInTheZoneAsked() {
        ServiceClock clock = new ServiceClock(() -> true);
        clock.clock().fix(T);
        assertThat(clock.today(ZoneId.of("Asia/Tokyo"))).isEqualTo(LocalDate.of(2026, 1, 15));
        clock.clock().shift(Duration.between(Instant.now(), T.plusSeconds(1)));
        assertThat(clock.today(ZoneId.of("Asia/Tokyo"))).isEqualTo(LocalDate.of(2026, 1, 16));
        assertThat(clock.today(ZoneOffset.UTC)).isEqualTo(LocalDate.of(2026, 1, 15));
    }

    @Test
    void movesOfMoreThanACenturyAreRefused() {
        ClockEndpoint api = new ClockEndpoint(new ServiceClock(() -> true));
        assertThatThrownBy(() -> api.move(new ClockControl.Move(Long.MAX_VALUE, null))).isInstanceOfSatisfying(
                ApiException.class, e -> assertThat(e.code()).isEqualTo(324));
        assertThatThrownBy(() -> api.move(new ClockControl.Move(Long.MIN_VALUE, null))).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> api.move(new ClockControl.Move(null, "+1000000000-01-01T00:00:00Z")))
                .isInstanceOf(ApiException.class);
        assertThat(api.move(new ClockControl.Move(-3600L, null)).offsetSeconds()).isEqualTo(-3600);
    }

    @Test
    void withTheFlagOffTheClockCannotBeReadOrMovedOverTheApi() {
        ServiceClock clock = new ServiceClock(() -> false);
        ClockEndpoint api = new ClockEndpoint(clock);
        assertThatThrownBy(api::get).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo(323));
        assertThatThrownBy(() -> api.move(new ClockControl.Move(60L, null))).isInstanceOf(ApiException.class);
        assertThatThrownBy(api::reset).isInstanceOf(ApiException.class);
        assertThat(clock.clock().setting().moved()).isFalse();
    }
}
