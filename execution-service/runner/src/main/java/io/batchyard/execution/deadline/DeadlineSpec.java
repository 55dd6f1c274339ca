package io.batchyard.execution.deadline;

import io.batchyard.events.ProcessDeadlines;
import io.batchyard.execution.bucket.BucketGrain;
import io.batchyard.execution.schedule.CronSchedule;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A parent's data deadlines as the registry announced them: when its buckets are expected and the deadlines of each
 * bucket, relative to the bucket's end. With a grain only, a bucket ends where its span ends (a day bucket D at
 * midnight that starts D+1); with a cron schedule, each fire ends the latest bucket of the grain that is over by then
 * (a daily 02:00 fire ends yesterday's day bucket, at 02:00 today: the deadlines count from the fire).
 *
 * <p>Start-by and finish-by are added to the end on the zone's local clock, never as a fixed number of seconds: a day
 * bucket's finish-by PT6H is 06:00 local on the next day, also after a 23- or a 25-hour day. A local time the zone
 * skips moves forward by the gap's length; a time it repeats is its earlier instant. Max runtime is a real duration
 * from the run's start.
 */
public record DeadlineSpec(BucketGrain grain, String cron, ZoneId zone, Duration startBy, Duration finishBy,
                           Duration maxRuntime) {

    /** One expected bucket: its key and the instant its deadlines are counted from. */
    public record Expected(String bucket, Instant end) {
    }

    /** The deadlines of an announced definition; empty when it has none (or none this service can read). */
    public static Optional<DeadlineSpec> of(ProcessDeadlines d) {
        if (d == null) {
            return Optional.empty();
        }
        try {
            BucketGrain grain = d.getGrain() == null ? BucketGrain.DAY : BucketGrain.of(d.getGrain()).orElseThrow();
            return Optional.of(new DeadlineSpec(grain, d.getCron(), ZoneId.of(d.getZone()), duration(d.getStartBy()),
                    duration(d.getFinishBy()), duration(d.getMaxRuntime())));
        } catch (RuntimeException unreadable) {
            // the registry validates what it announces; a value it could not have sent is no deadline here
            return Optional.empty();
        }
    }

    private static Duration duration(String iso) {
        return iso == null ? null : Duration.parse(iso);
    }

    /**
     * The buckets whose ends fall in {@code (after, upTo]}, oldest first, at most {@code limit}: what becomes
     * expected as time passes.
     */
    public List<Expected> endingBetween(Instant after, Instant upTo, int limit) {
        List<Expected> out = new ArrayList<>();
        if (cron != null) {
            for (ZonedDateTime fire : CronSchedule.parse(cron, zone.getId()).firesBetween(after, upTo)) {
                if (out.size() == limit) {
                    break;
                }
                Instant end = fire.toInstant();
                out.add(new Expected(lastBucketEndedBy(end), end));
            }
            return out;
        }
        BucketGrain.Span span = grain.span(grain.key(after, zone), zone).orElseThrow();
        while (out.size() < limit && !span.end().isAfter(upTo)) {
            if (span.end().isAfter(after)) {
                out.add(new Expected(grain.key(span.start(), zone), span.end()));
            }
            span = grain.span(grain.key(span.end(), zone), zone).orElseThrow();
        }
        return out;
    }

    /**
     * The first bucket end after {@code now}: the bucket in progress is expected as soon as it opens, so its
     * deadlines exist (and are announced) before any run of it.
     */
    public Instant nextEnd(Instant now) {
        if (cron != null) {
            // the next fire alone: listing fire times up to a horizon costs one step per fire (a thousand for a
            // schedule that fires every minute), for each parent in every materialising pass
            return CronSchedule.parse(cron, zone.getId()).nextFire(now).map(ZonedDateTime::toInstant).orElse(now);
        }
        return grain.span(grain.key(now, zone), zone).orElseThrow().end();
    }

    /** The key of the latest bucket of the grain that ended at or before {@code instant}. */
    private String lastBucketEndedBy(Instant instant) {
        BucketGrain.Span holding = grain.span(grain.key(instant.minusMillis(1), zone), zone).orElseThrow();
        Instant before = holding.end().isAfter(instant) ? holding.start().minusMillis(1) : instant.minusMillis(1);
        return grain.key(before, zone);
    }

    /** When a deadline {@code offset} after a bucket's {@code end} falls, counted on the zone's local clock. */
    public Instant due(Instant end, Duration offset) {
        return LocalDateTime.ofInstant(end, zone).plus(offset).atZone(zone).toInstant();
    }
}
