package io.batchyard.execution.trigger;

import java.time.Instant;
import java.util.List;

/**
 * What one input (or one timeout) decided for a parent ({@code parentId} is null when the event named no parent this
 * service knows): the trigger runs to start after the commit ({@code runIds}), the launcher hook's request for an
 * Oozie or Airflow parent, and when the input's event happened (the trigger's latency starts there). {@code optedOut}
 * marks the everyday case of a parent whose policy is none.
 */
public record TriggerDecision(Long parentId, Outcome outcome, String why, List<Long> runIds, LaunchRequest launch,
                              Instant eventAt, boolean optedOut) {

    /**
     * What a trigger led to; {@link #START} becomes started, queued or ignored once the runner has been asked, and
     * {@link #LAUNCH} launched once the launcher hook has; either is failed when that could not be done (after
     * retries). {@link #COALESCED}: the input joined its bucket's pending run; {@link #LATE}: it arrived after its
     * bucket's run had started and is shown with it; {@link #PAUSED}: a run is due but the parent is paused.
     */
    public enum Outcome {
        START("started"), LAUNCH("launched"), NOT_DEPLOYED("not_deployed"), QUEUED("queued"), WAITING("waiting"),
        IGNORED("ignored"), FAILED("failed"), COALESCED("coalesced"), LATE("late"), PAUSED("paused");

        private final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    static TriggerDecision of(Long parentId, Outcome outcome, String why) {
        return new TriggerDecision(parentId, outcome, why, List.of(), null, null, false);
    }

    static TriggerDecision optedOut(long parentId, String why) {
        return new TriggerDecision(parentId, Outcome.IGNORED, why, List.of(), null, null, true);
    }

    TriggerDecision withLaunch(LaunchRequest request) {
        return new TriggerDecision(parentId, Outcome.LAUNCH, why, runIds, request, eventAt, optedOut);
    }

    TriggerDecision as(Outcome other) {
        return new TriggerDecision(parentId, other, why, runIds, launch, eventAt, optedOut);
    }
}
