package io.batchyard.registry.process;

import static io.batchyard.registry.RegistryError.INVALID_DEADLINES;

import io.batchyard.events.ProcessDeadlines;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/**
 * A parent's data deadlines: buckets of {@code grain} (hour, day, week, month; day when not given) in {@code zone},
 * ending where their span ends or, with {@code cron}, at each fire of that five-field schedule; {@code startBy} and
 * {@code finishBy} are ISO-8601 durations counted from a bucket's end on the zone's local clock, {@code maxRuntime}
 * from its run's start.
 */
public record Deadlines(long processId, String grain, String cron, String zone, String startBy, String finishBy,
                        String maxRuntime) {

    static final List<String> GRAINS = List.of("hour", "day", "week", "month");
    /** No offset reaches further than a year past its bucket. */
    static final Duration LONGEST = Duration.ofDays(366);

    /**
     * The deadlines as given, checked and normalised (grain in lower case, durations in their canonical form);
     * 228 names the first field that is wrong.
     */
    public static Deadlines checked(long processId, String grain, String cron, String zone, String startBy,
                                    String finishBy, String maxRuntime) {
        String g = grain == null || grain.isBlank() ? "day" : grain.trim().toLowerCase(Locale.ROOT);
        if (!GRAINS.contains(g)) {
            throw INVALID_DEADLINES.exception("grain must be one of " + GRAINS);
        }
        if (zone == null || zone.isBlank()) {
            throw INVALID_DEADLINES.exception("zone is required, e.g. Europe/Berlin");
        }
        try {
            ZoneId.of(zone.trim());
        } catch (DateTimeException e) {
            throw INVALID_DEADLINES.exception("unknown time zone '" + zone.trim() + "'");
        }
        String c = cron == null || cron.isBlank() ? null : cron.trim();
        if (c != null && !c.matches("[0-9A-Za-z*,/?#LW-]+( [0-9A-Za-z*,/?#LW-]+){4}")) {
            throw INVALID_DEADLINES.exception("cron must be a five-field crontab expression (minute hour day-of-month "
                    + "month day-of-week)");
        }
        Duration start = offset("startBy", startBy, false);
        Duration finish = offset("finishBy", finishBy, false);
        Duration runtime = offset("maxRuntime", maxRuntime, true);
        if (start == null && finish == null && runtime == null) {
            throw INVALID_DEADLINES.exception("give at least one of startBy, finishBy and maxRuntime");
        }
        if (start != null && finish != null && start.compareTo(finish) > 0) {
            throw INVALID_DEADLINES.exception("startBy (" + start + ") comes after finishBy (" + finish + ")");
        }
        return new Deadlines(processId, g, c, zone.trim(), text(start), text(finish), text(runtime));
    }

    private static Duration offset(String field, String value, boolean positive) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Duration d;
        try {
            d = Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw INVALID_DEADLINES.exception(field + " must be an ISO-8601 duration such as PT6H or P1DT2H");
        }
        if (d.isNegative() || (positive && d.isZero()) || d.compareTo(LONGEST) > 0) {
            throw INVALID_DEADLINES.exception(field + " must be " + (positive ? "more than" : "at least") + " zero and "
                    + "at most " + LONGEST.toDays() + " days");
        }
        return d;
    }

    private static String text(Duration d) {
        return d == null ? null : d.toString();
    }

    /** As the process events carry them. */
    ProcessDeadlines event() {
        return ProcessDeadlines.newBuilder().setGrain(grain).setCron(cron).setZone(zone).setStartBy(startBy)
                .setFinishBy(finishBy).setMaxRuntime(maxRuntime).build();
    }
}
