package io.batchyard.queue.consumption;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;

/** A row of the batch consumption queue: one source batch offered to one consuming step. */
public record QueueRow(long queueId, long sourceBatchId, Long targetBatchId, OffsetDateTime insertTs,
                       Long sourceProcessId, OffsetDateTime startTs, OffsetDateTime endTs, int batchState,
                       String batchMarking, long processId) {

    public static final int NEW = 0;
    public static final int PROCESSED = 1;
    public static final int ACCESSED = 2;

    public boolean claimed() {
        return targetBatchId != null;
    }

    static QueueRow map(ResultSet rs) throws SQLException {
        long target = rs.getLong("target_batch_id");
        Long targetId = rs.wasNull() ? null : target;
        long source = rs.getLong("source_process_id");
        Long sourceProcess = rs.wasNull() ? null : source;
        return new QueueRow(rs.getLong("queue_id"), rs.getLong("source_batch_id"), targetId,
                rs.getObject("insert_ts", OffsetDateTime.class), sourceProcess,
                rs.getObject("start_ts", OffsetDateTime.class), rs.getObject("end_ts", OffsetDateTime.class),
                rs.getInt("batch_state"), rs.getString("batch_marking"), rs.getLong("process_id"));
    }
}
