package io.batchyard.registry.process;

import io.batchyard.registry.Rows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** A row of {@code process}: a parent process (job) when {@code parentProcessId} is null, else a step. */
public record ProcessRow(
        long processId,
        String name,
        String description,
        long applicationId,
        int processTypeId,
        Long parentProcessId,
        boolean canRecover,
        List<Long> enqueuingProcessIds,
        String batchCutPattern,
        List<Long> nextProcessIds,
        boolean deleted,
        int workflowTypeId,
        Long processTemplateId,
        UUID processCode,
        int version,
        OffsetDateTime createdAt,
        OffsetDateTime updatedAt) {

    public boolean isParent() {
        return parentProcessId == null;
    }

    /** The parent whose tree this process belongs to: itself for a parent. */
    public long treeId() {
        return isParent() ? processId : parentProcessId;
    }

    static ProcessRow map(ResultSet rs) throws SQLException {
        return new ProcessRow(
                rs.getLong("process_id"),
                rs.getString("name"),
                rs.getString("description"),
                rs.getLong("application_id"),
                rs.getInt("process_type_id"),
                Rows.nullableLong(rs, "parent_process_id"),
                rs.getBoolean("can_recover"),
                Rows.longs(rs, "enqueuing_process_ids"),
                rs.getString("batch_cut_pattern"),
                Rows.longs(rs, "next_process_ids"),
                rs.getBoolean("deleted"),
                rs.getInt("workflow_type_id"),
                Rows.nullableLong(rs, "process_template_id"),
                rs.getObject("process_code", UUID.class),
                rs.getInt("version"),
                Rows.timestamp(rs, "created_at"),
                Rows.timestamp(rs, "updated_at"));
    }
}
