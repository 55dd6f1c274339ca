package io.batchyard.execution.deadline;

import java.time.OffsetDateTime;

/**
 * One deadline of one expected bucket of a parent. {@code previous} is the state it left in the transition that
 * answered it (null when it was only read); {@code dueAt} is null for a RUNTIME deadline whose run has not started.
 */
public record Deadline(long deadlineId, long processId, String bucket, DeadlineKind kind, OffsetDateTime bucketEnd,
                       OffsetDateTime dueAt, DeadlineState state, OffsetDateTime eta, Long blockerProcessId,
                       String blockerReason, String waiveReason, OffsetDateTime runStartedAt,
                       OffsetDateTime decidedAt, DeadlineState previous) {
}
