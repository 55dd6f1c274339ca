package io.batchyard.execution.backfill;

import java.time.OffsetDateTime;
import java.util.UUID;

/** A backfill started from a plan: its state, how many runs it may have in flight, and what a failure does. */
public record Backfill(UUID backfillId, UUID planId, BackfillState state, int concurrency, String onFailure,
                       String createdBy, OffsetDateTime createdAt, OffsetDateTime updatedAt, int version) {
}
