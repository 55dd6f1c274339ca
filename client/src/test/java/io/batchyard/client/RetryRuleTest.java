package io.batchyard.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryRuleTest {

    private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");
    private final RetryRule rule = new RetryRule(3, Duration.ofSeconds(1), Duration.ofSeconds(10));

    @Test
    void a503WaitsWhatRetryAfterSaysInSeconds() {
        assertThat(rule.delayAfter(1, 503, "4", NOW)).contains(Duration.ofSeconds(4));
    }

    @Test
    void aRetryAfterDateIsTheTimeUntilThen() {
        assertThat(rule.delayAfter(1, 503, "Fri, 01 May 2026 10:00:07 GMT", NOW)).contains(Duration.ofSeconds(7));
        assertThat(rule.delayAfter(1, 503, "Fri, 01 May 2026 09:00:00 GMT", NOW)).contains(Duration.ZERO);
    }

    @Test
    void aMissingOrUnreadableRetryAfterWaitsTheDefault() {
        assertThat(rule.delayAfter(1, 503, null, NOW)).contains(Duration.ofSeconds(1));
        assertThat(rule.delayAfter(1, 503, "soon", NOW)).contains(Duration.ofSeconds(1));
        assertThat(rule.delayAfter(1, 503, "99999999999999999999999", NOW)).contains(Duration.ofSeconds(1));
    }

    @Test
    void theWaitIsCapped() {
        assertThat(rule.delayAfter(1, 503, "3600", NOW)).contains(Duration.ofSeconds(10));
    }

    @Test
    void theNumberOfCallsIsBounded() {
        assertThat(rule.delayAfter(2, 503, "1", NOW)).isPresent();
        assertThat(rule.delayAfter(3, 503, "1", NOW)).isEmpty();
        assertThat(rule.delayAfterConnectFailure(2)).contains(Duration.ofSeconds(1));
        assertThat(rule.delayAfterConnectFailure(3)).isEmpty();
        assertThat(RetryRule.NONE.delayAfter(1, 503, "1", NOW)).isEmpty();
    }

    @Test
    void onlyA503IsRepeated() {
        for (int status : new int[] {400, 401, 403, 404, 409, 422, 500, 502, 504}) {
            assertThat(rule.delayAfter(1, status, "1", NOW)).as("status %d", status).isEmpty();
        }
    }

    @Test
    void aRuleWithoutCallsIsRefused() {
        assertThatThrownBy(() -> new RetryRule(0, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
