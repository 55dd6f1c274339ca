package io.batchyard.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When to call again. Batchyard answers 503 with {@code Retry-After} while the database, the broker or another
 * service is away and nothing was changed, so the same call may simply be repeated after that delay. The delay is
 * capped and the number of calls bounded: a job must fail visibly rather than hang its workflow for hours.
 *
 * @param maxAttempts calls in all, the first included
 * @param defaultDelay the wait when the answer gives no usable {@code Retry-After} (or the connection was refused)
 * @param maxDelay the longest single wait, whatever {@code Retry-After} says
 */
public record RetryRule(int maxAttempts, Duration defaultDelay, Duration maxDelay) {

    /** Five calls, 1 s without a header, at most 30 s per wait. */
    public static final RetryRule DEFAULT = new RetryRule(5, Duration.ofSeconds(1), Duration.ofSeconds(30));
    /** One call, never again. */
    public static final RetryRule NONE = new RetryRule(1, Duration.ZERO, Duration.ZERO);

    public RetryRule {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        if (defaultDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("delays must not be negative");
        }
    }

    /**
     * The wait before call {@code attempt + 1} after call {@code attempt} (1-based) was answered {@code status} with
     * {@code retryAfter} (null when absent), or empty when the answer stands.
     */
    public Optional<Duration> delayAfter(int attempt, int status, String retryAfter, Instant now) {
        if (status != 503 || attempt >= maxAttempts) {
            return Optional.empty();
        }
        return Optional.of(cap(parseRetryAfter(retryAfter, now).orElse(defaultDelay)));
    }

    /** The wait after a call that never reached the service (connection refused or reset), or empty after the last. */
    public Optional<Duration> delayAfterConnectFailure(int attempt) {
        return attempt >= maxAttempts ? Optional.empty() : Optional.of(cap(defaultDelay));
    }

    private Duration cap(Duration d) {
        return d.compareTo(maxDelay) > 0 ? maxDelay : d;
    }

    /** {@code Retry-After} is either delay-seconds or an HTTP-date; anything else is ignored. */
    static Optional<Duration> parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String v = value.trim();
        if (v.chars().allMatch(Character::isDigit)) {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
            } catch (NumberFormatException tooLong) {
                return Optional.empty();
            }
        }
        try {
            Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(now, at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
