package io.batchyard.queue.compaction.table;

import java.time.ZoneId;
import java.time.ZoneOffset;

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
