package io.batchyard.queue.compaction.table;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * A table's own settings as stored: a null value means the service's global default (see {@link Effective}).
 * {@code timeZone} null means the table's registered {@code zoneOffsetMinutes}.
 */
public record TableSettings(Long mergedObjectSize, int mergeIntervalSeconds, Integer acceptancePastDays,
                            Integer acceptanceFutureDays, Integer mergeableDelayDays, String timeZone) {

    /**
     * The values decisions use: the table's where it has one, else the global default; a window that is null in
     * both is unbounded.
     */
    public record Effective(long mergedObjectSize, int mergeIntervalSeconds, Integer acceptancePastDays,
                            Integer acceptanceFutureDays, Integer mergeableDelayDays, String timeZone) {

        public ZoneId zone() {
            return ZoneId.of(timeZone);
        }

        /**
         * Where a partition date lies against the mergeable window at {@code now}: from the local date of
         * now - mergeableDelayDays days - 1 hour to the local date of now + 1 day + 1 hour, both inclusive, in the
         * table's zone. The hour covers processing and delivery lag around midnight; the day ahead, producers whose
         * day begins before the table's (a zone further east, a clock running ahead). Without a mergeable delay every
         * date is inside: the window is unbounded on both sides.
         */
        public Window window(LocalDate date, Instant now) {
            if (mergeableDelayDays == null) {
                return Window.INSIDE;
            }
            ZonedDateTime local = now.atZone(zone());
            if (date.isBefore(local.minusDays(mergeableDelayDays).minusHours(1).toLocalDate())) {
                return Window.BEHIND;
            }
            return date.isAfter(local.plusDays(1).plusHours(1).toLocalDate()) ? Window.AHEAD : Window.INSIDE;
        }
    }

    /** A partition date against its table's mergeable window ({@link Effective#window}). */
    public enum Window {
        /** Older than the window: it never comes back into it unless the table's mergeable delay grows. */
        BEHIND,
        /** Arrivals make a merge job. */
        INSIDE,
        /** Further ahead than the window: time brings it in. */
        AHEAD
    }

    /** Global defaults: {@code batchyard.compaction.*}. */
    public record Defaults(long mergedObjectSize, Integer acceptancePastDays, Integer acceptanceFutureDays,
                           Integer mergeableDelayDays) {
    }

    public Effective effective(Defaults defaults, int zoneOffsetMinutes) {
        return new Effective(mergedObjectSize != null ? mergedObjectSize : defaults.mergedObjectSize(),
                mergeIntervalSeconds,
                acceptancePastDays != null ? acceptancePastDays : defaults.acceptancePastDays(),
                acceptanceFutureDays != null ? acceptanceFutureDays : defaults.acceptanceFutureDays(),
                mergeableDelayDays != null ? mergeableDelayDays : defaults.mergeableDelayDays(),
                timeZone != null ? timeZone
                        : zoneOffsetMinutes == 0 ? "UTC" : ZoneOffset.ofTotalSeconds(zoneOffsetMinutes * 60).getId());
    }
}
