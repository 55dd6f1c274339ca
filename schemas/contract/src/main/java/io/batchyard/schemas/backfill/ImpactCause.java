package io.batchyard.schemas.backfill;

/** Why a unit is affected: it consumed {@code batchId}, the output of run {@code runId} of {@code processId}. */
public record ImpactCause(long processId, long runId, long batchId) {
}
