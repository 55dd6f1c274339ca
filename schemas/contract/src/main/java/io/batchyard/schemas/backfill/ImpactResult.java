package io.batchyard.schemas.backfill;

import java.util.List;

/**
 * queue-service's answer to an impact question: every affected unit of work, and a fingerprint of every queue and
 * archive row the walk read, so that a plan made from this answer can tell later whether it still holds.
 */
public record ImpactResult(String fingerprint, int rowsRead, List<ImpactUnit> units) {
}
