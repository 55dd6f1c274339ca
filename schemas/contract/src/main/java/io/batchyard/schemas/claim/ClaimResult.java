package io.batchyard.schemas.claim;

import java.util.List;

/** queue-service's answer to a claim: the run's target batch, whether it re-binds a failed run's, and its rows. */
public record ClaimResult(long targetBatchId, boolean retry, List<ClaimedRow> rows) {
}
