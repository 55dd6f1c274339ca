package io.batchyard.execution.bucket;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A date-pattern bucket (PWM {@code job.bucket} = YYYYMMDD or YYYYMMDDHH): it names the job's granularity, and the
 * clock names the current period. Values sort lexically in time order, which oldest-first selection relies on.
 */
public enum BucketPattern {
    DAILY("YYYYMMDD", DateTimeFormatter.ofPattern("yyyyMMdd"), ChronoUnit.DAYS),
    HOURLY("YYYYMMDDHH", DateTimeFormatter.ofPattern("yyyyMMddHH"), ChronoUnit.HOURS);

    /** Backfill is for catching up, not for generating years of hours by a typo. */
    public static final int MAX_BACKFILL = 10_000;

    private final String text;
    private final DateTimeFormatter format;
    private final ChronoUnit unit;

    BucketPattern(String text, DateTimeFormatter format, ChronoUnit unit) {
        this.text = text;
        this.format = format;
        this.unit = unit;
    }

    public static Optional<BucketPattern> of(String bucket) {
        for (BucketPattern p : values()) {
            if (p.text.equals(bucket)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    public String text() {
        return text;
    }

    public String current(LocalDateTime now) {
        return format.format(now);
    }

    /** Whether {@code value} is a bucket of this granularity, e.g. 20241215 for DAILY. */
    public boolean matches(String value) {
        return parse(value).isPresent();
    }

    /** Every bucket from {@code from} to {@code to}, both included, oldest first. */
    public List<String> range(String from, String to) {
        LocalDateTime start = parse(from).orElseThrow(() -> new IllegalArgumentException(
                "'" + from + "' is not a " + text + " bucket"));
        LocalDateTime end = parse(to).orElseThrow(() -> new IllegalArgumentException(
                "'" + to + "' is not a " + text + " bucket"));
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("backfill range ends (" + to + ") before it starts (" + from + ")");
        }
        long count = unit.between(start, end) + 1;
        if (count > MAX_BACKFILL) {
            throw new IllegalArgumentException("backfill of " + count + " buckets exceeds the limit of " + MAX_BACKFILL);
        }
        List<String> out = new ArrayList<>();
        for (LocalDateTime t = start; !t.isAfter(end); t = t.plus(1, unit)) {
            out.add(format.format(t));
        }
        return out;
    }

    private Optional<LocalDateTime> parse(String value) {
        if (value == null || value.length() != text.length() || !value.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        try {
            String padded = this == DAILY ? value + "00" : value;
            return Optional.of(LocalDateTime.parse(padded, DateTimeFormatter.ofPattern("uuuuMMddHH")
                    .withResolverStyle(java.time.format.ResolverStyle.STRICT)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
