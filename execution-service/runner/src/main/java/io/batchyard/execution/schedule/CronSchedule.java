package io.batchyard.execution.schedule;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A five-field crontab expression in a time zone (PWM job_schedule): when it fires between two instants. */
public final class CronSchedule {

    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    /** A tick after a long outage fires a bounded number of missed times; backfill covers the rest on purpose. */
    static final int MAX_CATCH_UP = 1000;

    private final ExecutionTime execution;
    private final ZoneId zone;

    private CronSchedule(ExecutionTime execution, ZoneId zone) {
        this.execution = execution;
        this.zone = zone;
    }

    /** @throws IllegalArgumentException with a readable reason for a bad expression or zone */
    public static CronSchedule parse(String cron, String timeZone) {
        ZoneId zone;
        try {
            zone = ZoneId.of(timeZone == null ? "UTC" : timeZone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + timeZone + "'");
        }
        try {
            return new CronSchedule(ExecutionTime.forCron(PARSER.parse(cron.trim())), zone);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("'" + cron + "' is not a five-field crontab expression (minute hour "
                    + "day-of-month month day-of-week): " + e.getMessage());
        }
    }

    /** The first fire time after {@code after}; empty when the expression never fires again. */
    public Optional<ZonedDateTime> nextFire(Instant after) {
        return execution.nextExecution(after.atZone(zone));
    }

    /** Fire times in (after, upTo], oldest first. */
    public List<ZonedDateTime> firesBetween(Instant after, Instant upTo) {
        List<ZonedDateTime> out = new ArrayList<>();
        ZonedDateTime t = after.atZone(zone);
        ZonedDateTime end = upTo.atZone(zone);
        while (out.size() < MAX_CATCH_UP) {
            Optional<ZonedDateTime> next = execution.nextExecution(t);
            if (next.isEmpty() || next.get().isAfter(end)) {
                break;
            }
            out.add(next.get());
            t = next.get();
        }
        return out;
    }

    public ZoneId zone() {
        return zone;
    }
}
