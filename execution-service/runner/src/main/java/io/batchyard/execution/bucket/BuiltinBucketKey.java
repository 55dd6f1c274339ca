package io.batchyard.execution.bucket;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAdjusters;
import java.util.Optional;
import java.util.function.Function;

/**
 * Bucket keys every installation knows (PWM resolved them with a stored procedure per site). A key registered in
 * {@code bucket_key} with a script of the same name takes precedence, so a site can redefine them.
 */
public enum BuiltinBucketKey {
    CurrentDay(now -> day(now)),
    PreviousDay(now -> day(now.minusDays(1))),
    FirstDayOfMonth(now -> day(now.with(TemporalAdjusters.firstDayOfMonth()))),
    FirstDayOfWeek(now -> day(now.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)))),
    CurrentHour(now -> hour(now)),
    PreviousHour(now -> hour(now.minusHours(1))),
    /** A range bucket: Monday to Sunday of last week, as two values. */
    PreviousWeek(now -> {
        LocalDateTime monday = now.minusWeeks(1).with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        return day(monday) + " " + day(monday.plusDays(6));
    });

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyyMMddHH");

    private final Function<LocalDateTime, String> resolve;

    BuiltinBucketKey(Function<LocalDateTime, String> resolve) {
        this.resolve = resolve;
    }

    /** Keys compare case-insensitively: the reference's own examples spell FirstDayofMonth and FirstDayOfMonth. */
    public static Optional<BuiltinBucketKey> of(String key) {
        for (BuiltinBucketKey k : values()) {
            if (k.name().equalsIgnoreCase(key)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    public String resolve(LocalDateTime now) {
        return resolve.apply(now);
    }

    private static String day(LocalDateTime t) {
        return DAY.format(t);
    }

    private static String hour(LocalDateTime t) {
        return HOUR.format(t);
    }
}
