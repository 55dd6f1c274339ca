package io.batchyard.execution.bucket;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The size of a bucket (an hour, a day, a week, a month) and how a bucket's key maps to the span of time it covers in
 * a zone. Keys are the runner's own: {@code yyyyMMddHH} for an hour, {@code yyyyMMdd} of the first day for the
 * others (a week starts on Monday), so a bucket recorded by a schedule and one recorded by a trigger are the same row.
 *
 * <p>Spans are computed on the zone's local calendar and then turned into instants, never by adding fixed durations:
 * a day in Europe/Berlin is 23 hours on the last Sunday of March and 25 on the last Sunday of October, and the hour
 * 02 does not exist on the first of those days. An hour key is the hour its span starts in, read on the local clock;
 * the repeated hour of an autumn night therefore has one key for its two instants, and its span is the two of them.
 */
public enum BucketGrain {
    HOUR("hour", 10), DAY("day", 8), WEEK("week", 8), MONTH("month", 8);

    private static final DateTimeFormatter HOUR_KEY = DateTimeFormatter.ofPattern("yyyyMMddHH", Locale.ROOT);
    private static final DateTimeFormatter DAY_KEY = DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT);

    /** A bucket's span, start included and end excluded. */
    public record Span(Instant start, Instant end) {
        public boolean contains(Instant instant) {
            return !instant.isBefore(start) && instant.isBefore(end);
        }
    }

    private final String text;
    private final int keyLength;

    BucketGrain(String text, int keyLength) {
        this.text = text;
        this.keyLength = keyLength;
    }

    /** The name used in requests and answers: {@code hour}, {@code day}, {@code week}, {@code month}. */
    public String text() {
        return text;
    }

    public static Optional<BucketGrain> of(String text) {
        for (BucketGrain grain : values()) {
            if (grain.text.equalsIgnoreCase(text == null ? "" : text.trim())) {
                return Optional.of(grain);
            }
        }
        return Optional.empty();
    }

    /**
     * The grain a key is written in when nothing else says: ten digits are an hour, eight a day; anything else (a
     * marking of another shape, a range) has none.
     */
    public static Optional<BucketGrain> inferred(String key) {
        if (key == null || !key.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return key.length() == 10 ? Optional.of(HOUR) : key.length() == 8 ? Optional.of(DAY) : Optional.empty();
    }

    /** The key of the bucket of this grain that holds {@code instant} in {@code zone}. */
    public String key(Instant instant, ZoneId zone) {
        LocalDateTime local = LocalDateTime.ofInstant(instant, zone);
        return switch (this) {
            case HOUR -> local.truncatedTo(ChronoUnit.HOURS).format(HOUR_KEY);
            case DAY -> local.toLocalDate().format(DAY_KEY);
            case WEEK -> local.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).format(DAY_KEY);
            case MONTH -> local.toLocalDate().withDayOfMonth(1).format(DAY_KEY);
        };
    }

    /**
     * The span a key of this grain covers in {@code zone}; empty when the key is not one of this grain (wrong length,
     * not a date, a day key of a week that is not a Monday, of a month that is not the first, an hour that the zone
     * skips).
     */
    public Optional<Span> span(String key, ZoneId zone) {
        if (key == null || key.length() != keyLength) {
            return Optional.empty();
        }
        try {
            if (this == HOUR) {
                LocalDateTime hour = LocalDateTime.parse(key, HOUR_KEY);
                if (!hour.format(HOUR_KEY).equals(key) || zone.getRules().getValidOffsets(hour).isEmpty()) {
                    return Optional.empty();
                }
                // the earlier offset of a repeated hour: its span reaches to the next local hour's first instant
                Instant start = hour.atZone(zone).withEarlierOffsetAtOverlap().toInstant();
                Instant end = hour.plusHours(1).atZone(zone).withEarlierOffsetAtOverlap().toInstant();
                return Optional.of(new Span(start, end));
            }
            LocalDate day = LocalDate.parse(key, DAY_KEY);
            if (!day.format(DAY_KEY).equals(key)) {
                return Optional.empty(); // a lenient parse turned the 30th of February into a real day
            }
            LocalDate next = switch (this) {
                case DAY -> day.plusDays(1);
                case WEEK -> day.getDayOfWeek() == DayOfWeek.MONDAY ? day.plusWeeks(1) : null;
                case MONTH -> day.getDayOfMonth() == 1 ? day.plusMonths(1) : null;
                default -> throw new IllegalStateException();
            };
            if (next == null) {
                return Optional.empty();
            }
            return Optional.of(new Span(startOf(day, zone), startOf(next, zone)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * The keys of this grain whose spans start inside {@code span}, oldest first: the 24 hours of a day (23 or 25 on a
     * day the clocks change), the days of a month. A bucket of a finer grain belongs to the coarser bucket its start
     * falls in, so every finer key is in exactly one coarser bucket.
     */
    public List<String> keysStartingIn(Span span, ZoneId zone) {
        List<String> keys = new ArrayList<>();
        String key = key(span.start(), zone);
        Span current = span(key, zone).orElseThrow();
        if (current.start().isBefore(span.start())) {
            current = next(current, zone);
        }
        while (current.start().isBefore(span.end())) {
            keys.add(key(current.start(), zone));
            current = next(current, zone);
        }
        return keys;
    }

    /** The bucket after the one of {@code span}. */
    private Span next(Span span, ZoneId zone) {
        return span(key(span.end(), zone), zone).orElseThrow();
    }

    /** A day's first instant: midnight, or the first instant after it where a zone skips midnight. */
    private static Instant startOf(LocalDate day, ZoneId zone) {
        ZonedDateTime start = day.atStartOfDay(zone);
        return start.toInstant();
    }
}
