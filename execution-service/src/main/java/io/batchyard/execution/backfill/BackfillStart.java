package io.batchyard.execution.backfill;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.UUID;

/**
 * The body of {@code POST /backfills}: the plan to run; {@code recompute} true runs a fresh plan of the same request
 * when the state changed since (default false: refuse with the difference); at most {@code concurrency} runs at once
 * (default 2); {@code onFailure} {@code stop} (default) or {@code continue}.
 */
public record BackfillStart(@NotNull UUID planId, Boolean recompute, @Min(1) @Max(64) Integer concurrency,
                            @Pattern(regexp = "stop|continue") String onFailure) {

    public boolean recomputeOrDefault() {
        return recompute != null && recompute;
    }

    public int concurrencyOrDefault() {
        return concurrency == null ? 2 : concurrency;
    }

    public String onFailureOrDefault() {
        return onFailure == null ? "stop" : onFailure;
    }
}
