package io.batchyard.execution.deadline;

import java.time.OffsetDateTime;

/** A parent's deadlines and how far its expected buckets have been materialised. */
public record DeadlineDefinition(long processId, DeadlineSpec spec, OffsetDateTime effectiveFrom,
                                 OffsetDateTime materialisedUntil) {
}
