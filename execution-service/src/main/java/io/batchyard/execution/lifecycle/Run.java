package io.batchyard.execution.lifecycle;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;

/** A run (instance execution) of a parent process or of a step. */
public record Run(long instanceExecId, long processId, Long parentInstanceExecId, OffsetDateTime startTs,
                  OffsetDateTime endTs, ExecState state, Long targetBatchId, String batchMarking, boolean retry,
                  Long lastRecoverableSpId, int version) {

    static Run map(ResultSet rs) throws SQLException {
        return new Run(rs.getLong("instance_exec_id"), rs.getLong("process_id"),
                (Long) rs.getObject("parent_instance_exec_id", Long.class),
                rs.getObject("start_ts", OffsetDateTime.class), rs.getObject("end_ts", OffsetDateTime.class),
                ExecState.of(rs.getInt("exec_state")), (Long) rs.getObject("target_batch_id", Long.class),
                rs.getString("batch_marking"), rs.getBoolean("retry"),
                (Long) rs.getObject("last_recoverable_sp_id", Long.class), rs.getInt("version"));
    }
}
