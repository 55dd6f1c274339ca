package io.batchyard.queue.clock;

import io.batchyard.api.ErrorCode;

/** The movable clock's refusals (323-324, in compaction's range since its rules are the clock's main readers). */
public enum ClockError implements ErrorCode {
    // 404, not 403: with the flag off the endpoint does not exist for anyone, whatever the caller's role
    CLOCK_NOT_MOVABLE(323, 404, "The clock of this service cannot be moved (batchyard.clock.movable is off)"),
    INVALID_CLOCK_SETTING(324, 400, "Give exactly one of offsetSeconds and instant");

    private final Spec spec;

    ClockError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
