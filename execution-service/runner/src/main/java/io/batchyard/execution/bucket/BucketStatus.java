package io.batchyard.execution.bucket;

import java.time.OffsetDateTime;

/** One (process, bucket) row of the run ledger (PWM job_status). */
public record BucketStatus(long processId, String bucket, State status, Long instanceExecId, int attempts,
                           String message, OffsetDateTime updatedAt, OffsetDateTime nextAttemptAt) {

    /** INIT → RUNNING → COMPLETE | FAILED; FAILED → INIT on retry. */
    public enum State {
        INIT, RUNNING, COMPLETE, FAILED;

        public boolean canBecome(State to) {
            return switch (this) {
                case INIT -> to == RUNNING;
                case RUNNING -> to == COMPLETE || to == FAILED || to == INIT;
                case FAILED -> to == INIT || to == RUNNING;
                case COMPLETE -> false;
            };
        }
    }
}
