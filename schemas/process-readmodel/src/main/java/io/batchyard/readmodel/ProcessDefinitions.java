package io.batchyard.readmodel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Queries over the local read model; every method runs on the caller's handle. */
@ApplicationScoped
public class ProcessDefinitions {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<ProcessDefinition.Property>> PROPERTIES = new TypeReference<>() {
    };

    /** A parent and its live steps (ordered by id). */
    public record Tree(ProcessDefinition parent, List<ProcessDefinition> steps) {
    }

    public Optional<ProcessDefinition> find(Handle h, long processId) {
        return h.createQuery("SELECT * FROM process_definition WHERE process_id = :id").bind("id", processId)
                .map((rs, ctx) -> map(rs)).findOne();
    }

    /**
     * Locks a process's row: lifecycle calls on one parent serialise on it, which is what makes "exactly one of two
     * concurrent InitJobs wins" hold without a read-then-write race.
     */
    public Optional<ProcessDefinition> lock(Handle tx, long processId) {
        return tx.createQuery("SELECT * FROM process_definition WHERE process_id = :id FOR UPDATE").bind("id", processId)
                .map((rs, ctx) -> map(rs)).findOne();
    }

    public Optional<Tree> tree(Handle h, long parentId) {
        return find(h, parentId).filter(ProcessDefinition::isParent).map(parent -> new Tree(parent,
                h.createQuery("""
                                SELECT * FROM process_definition WHERE parent_process_id = :id AND NOT deleted
                                ORDER BY process_id""")
                        .bind("id", parentId).map((rs, ctx) -> map(rs)).list()));
    }

    /** Live processes that name {@code parentId} among their enqueuing processes (downstream consumers). */
    public List<ProcessDefinition> consumersOf(Handle h, long parentId) {
        return h.createQuery("""
                        SELECT * FROM process_definition WHERE NOT deleted AND :id = ANY(enqueuing_process_ids)
                        ORDER BY process_id""")
                .bind("id", parentId).map((rs, ctx) -> map(rs)).list();
    }

    static ProcessDefinition map(ResultSet rs) throws SQLException {
        long parent = rs.getLong("parent_process_id");
        Long parentId = rs.wasNull() ? null : parent;
        try {
            return new ProcessDefinition(rs.getLong("process_id"), parentId, rs.getString("process_name"),
                    rs.getInt("process_type_id"), rs.getBoolean("can_recover"), longs(rs.getArray("enqueuing_process_ids")),
                    rs.getString("batch_cut_pattern"), longs(rs.getArray("next_process_ids")), rs.getBoolean("deleted"),
                    rs.getInt("workflow_type_id"), JSON.readValue(rs.getString("properties"), PROPERTIES));
        } catch (JsonProcessingException e) {
            throw new SQLException("unreadable properties of process " + rs.getLong("process_id"), e);
        }
    }

    private static List<Long> longs(Array array) throws SQLException {
        return array == null ? List.of() : List.copyOf(Arrays.asList((Long[]) array.getArray()));
    }

    static String json(List<ProcessDefinition.Property> properties) {
        try {
            return JSON.writeValueAsString(properties);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
