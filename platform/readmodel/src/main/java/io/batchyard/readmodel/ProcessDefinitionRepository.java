package io.batchyard.readmodel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.RowMapper;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The local read model's table. Every method joins the caller's session, so a lock taken here holds until the
 * caller's transaction ends. Arrays and JSON are read as text (Hibernate Reactive's native queries read an array
 * column as bytes); JSON is written through a text cast too: a Java string bound straight to a jsonb parameter is
 * stored as a JSON string.
 */
@ApplicationScoped
public class ProcessDefinitionRepository extends SqlRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<ProcessDefinition.Property>> PROPERTIES = new TypeReference<>() {
    };
    // Qualified, so that a query joining application_access (which also has deleted, application_id) stays unambiguous.
    private static final String FIELDS = """
            process_definition.process_id, process_definition.parent_process_id, process_definition.process_name,
              process_definition.process_type_id, process_definition.can_recover,
              array_to_string(process_definition.enqueuing_process_ids, ',') AS enqueuing_process_ids,
              process_definition.batch_cut_pattern,
              array_to_string(process_definition.next_process_ids, ',') AS next_process_ids, process_definition.deleted,
              process_definition.workflow_type_id, CAST(process_definition.properties AS text) AS properties""";
    private static final String COLUMNS = "SELECT " + FIELDS + " FROM process_definition";
    private static final String ACCESS_FIELDS = """
            , a.application_id, a.owner_user, a.owner_group, a.owner_permission, a.group_permission, a.others_permission""";
    private static final String WITH_ACCESS = " FROM process_definition LEFT JOIN application_access a"
            + " ON a.application_id = process_definition.application_id AND NOT a.deleted";
    private static final String GUARDED = "SELECT " + FIELDS + ACCESS_FIELDS + WITH_ACCESS;
    /** Locks the parent of the step that is the outer row; the subquery names its table "p" to keep the two apart. */
    private static final String LOCKING_PARENT = " LEFT JOIN LATERAL (SELECT 1 AS parent_locked FROM process_definition p"
            + " WHERE p.process_id = process_definition.parent_process_id FOR UPDATE) parent ON true";

    /** A parent and its live steps (ordered by id). */
    public record Tree(ProcessDefinition parent, List<ProcessDefinition> steps) {
    }

    /**
     * A process's definition with the permissions of its application, read in the same statement; the permissions
     * are empty when the application's never arrived (or it was deleted).
     */
    public record Guarded(ProcessDefinition definition, Optional<ApplicationAccess> access) {
    }

    public Uni<Optional<ProcessDefinition>> find(long processId) {
        return one(COLUMNS + " WHERE process_definition.process_id = :id", processId);
    }

    /** The definitions of these processes, one statement; an unknown id has no element. */
    public Uni<List<ProcessDefinition>> findAll(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return definitions(COLUMNS + " WHERE process_definition.process_id IN (:ids)", Params.of("ids", processIds));
    }

    /**
     * Locks a process's row: lifecycle calls on one parent serialise on it, which is what makes "exactly one of two
     * concurrent InitJobs wins" hold without a read-then-write race.
     */
    public Uni<Optional<ProcessDefinition>> lock(long processId) {
        return one(COLUMNS + " WHERE process_definition.process_id = :id FOR UPDATE", processId);
    }

    /**
     * Locks a process's row as {@link #lock} does, and reads its application's permissions in the same statement:
     * what a job's lifecycle call reads first.
     */
    public Uni<Optional<Guarded>> lockGuarded(long processId) {
        return guarded(GUARDED + " WHERE process_definition.process_id = :id FOR UPDATE OF process_definition",
                processId);
    }

    /** A job's parent as {@link #lockGuarded} reads it, and its live steps (ordered by id). */
    public record GuardedJob(Optional<Guarded> parent, List<ProcessDefinition> steps) {
    }

    /**
     * Locks a process's row and reads its permissions as {@link #lockGuarded} does, and reads its live steps, in one
     * statement: what a job's lifecycle call reads first. The steps are read as of the statement's start, so a change
     * of a step's definition that committed while the lock was awaited is not seen: the call then acts as if it came
     * just before that change. No step is read when the process is unknown.
     */
    public Uni<GuardedJob> lockGuardedWithSteps(long processId) {
        return list("""
                        WITH parent AS (%1$s WHERE process_definition.process_id = :id FOR UPDATE OF process_definition)
                        SELECT 0 AS is_step, parent.* FROM parent
                        UNION ALL
                        SELECT 1 AS is_step, steps.* FROM (%1$s
                          WHERE process_definition.parent_process_id = :id AND NOT process_definition.deleted) AS steps
                        WHERE EXISTS (SELECT 1 FROM parent)
                        ORDER BY is_step, process_id""".formatted(GUARDED), Params.of("id", processId), r -> r)
                .map(ProcessDefinitionRepository::job);
    }

    /** {@link GuardedJob} and what an {@link Alongside} read of the parent with it. */
    public record GuardedJobWith<T>(GuardedJob job, T alongside) {
    }

    /**
     * {@link #lockGuardedWithSteps(long)}, reading {@code alongside} of the parent in the same statement, as of the
     * statement's start like the steps (so it may be stale: see {@link #findGuardedLockingParent(long, Alongside)}).
     * With no parent, the alongside columns are read as nulls.
     */
    public <T> Uni<GuardedJobWith<T>> lockGuardedWithSteps(long processId, Alongside<T> alongside) {
        // The alongside joins name "process_definition": here an unlocked second read of the parent's row, joined to
        // the parent's answer row only (the steps' rows get nulls).
        return list("""
                        WITH parent AS (%1$s WHERE process_definition.process_id = :id FOR UPDATE OF process_definition),
                        job AS (
                          SELECT 0 AS is_step, parent.* FROM parent
                          UNION ALL
                          SELECT 1 AS is_step, steps.* FROM (%1$s
                            WHERE process_definition.parent_process_id = :id AND NOT process_definition.deleted) AS steps
                          WHERE EXISTS (SELECT 1 FROM parent))
                        SELECT job.*, %2$s FROM (SELECT 1) AS answer
                        LEFT JOIN job ON true
                        LEFT JOIN process_definition ON process_definition.process_id = :id
                          AND (job.is_step = 0 OR job.is_step IS NULL)
                        %3$s
                        ORDER BY job.is_step, job.process_id""".formatted(GUARDED, alongside.columns(),
                        alongside.joins()), Params.of("id", processId).and(alongside.params()), r -> r)
                // The parent's row comes first (ordered by is_step) and carries the alongside columns; with no
                // parent, the one answer row has only nulls.
                .map(rows -> new GuardedJobWith<>(job(rows), alongside.mapper().map(rows.get(0))));
    }

    /** A job's rows, the parent's first (is_step 0), then its steps (1); a row without is_step stands for nothing. */
    private static GuardedJob job(List<Row> rows) {
        Optional<Guarded> parent = Optional.empty();
        List<ProcessDefinition> steps = new ArrayList<>();
        for (Row r : rows) {
            if (r.get("is_step") == null) {
                continue;
            }
            if (r.getInt("is_step") == 0) {
                parent = Optional.of(guarded(r));
            } else {
                steps.add(map(r));
            }
        }
        return new GuardedJob(parent, steps);
    }

    /**
     * What another table says of a process, read in the statement that reads the definition: {@code joins} (LATERAL
     * joins on {@code process_definition}'s columns), the {@code columns} they add to the select list, their
     * parameters, and how to read those columns of the row.
     */
    public record Alongside<T>(String columns, String joins, Params params, RowMapper<T> mapper) {
    }

    /** A definition with its permissions, and what an {@link Alongside} read with it. */
    public record GuardedWith<T>(Guarded guarded, T alongside) {
    }

    /**
     * A step's definition and its application's permissions, its parent's row locked in the same statement (as
     * {@link #lock} would), and {@code alongside}: what a step's lifecycle call reads first and then waits on. Nothing
     * is locked when the process is unknown or has no parent. The lock is granted during the statement, but what the
     * statement reads of other rows is as of its start: a read of rows that calls holding the lock change may be
     * stale, and a caller must check it against what its next statement finds.
     */
    public <T> Uni<Optional<GuardedWith<T>>> findGuardedLockingParent(long processId, Alongside<T> alongside) {
        return first("SELECT " + FIELDS + ACCESS_FIELDS + ", " + alongside.columns() + WITH_ACCESS + LOCKING_PARENT
                        + " " + alongside.joins() + " WHERE process_definition.process_id = :id",
                Params.of("id", processId).and(alongside.params()),
                r -> new GuardedWith<>(guarded(r), alongside.mapper().map(r)));
    }

    /**
     * Locks several processes' rows, one statement, in id order: two transactions that lock overlapping sets this way
     * take the common rows in the same order, so they wait for each other but never in a cycle. Unknown ids lock
     * nothing.
     */
    public Uni<Void> lockAll(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return values("SELECT process_id FROM process_definition WHERE process_id IN (:ids) ORDER BY process_id"
                + " FOR UPDATE", Long.class, Params.of("ids", processIds)).replaceWithVoid();
    }

    public Uni<Optional<Tree>> tree(long parentId) {
        return find(parentId).chain(parent -> parent.filter(ProcessDefinition::isParent)
                .map(p -> stepsOf(parentId).map(steps -> Optional.of(new Tree(p, steps))))
                .orElseGet(() -> Uni.createFrom().item(Optional.empty())));
    }

    /** The live steps of a parent, in id order (for a caller that already holds the parent's row). */
    public Uni<List<ProcessDefinition>> stepsOf(long parentId) {
        return definitions(COLUMNS + " WHERE parent_process_id = :id AND NOT deleted ORDER BY process_id",
                Params.of("id", parentId));
    }

    /** Live processes that name {@code parentId} among their enqueuing processes (downstream consumers). */
    public Uni<List<ProcessDefinition>> consumersOf(long parentId) {
        return definitions(COLUMNS + " WHERE NOT deleted AND CAST(:id AS bigint) = ANY(enqueuing_process_ids)"
                + " ORDER BY process_id", Params.of("id", parentId));
    }

    /**
     * Writes a definition, and the application it belongs to, unless the row already holds a state at least as recent
     * as {@code at}.
     */
    Uni<Void> upsert(ProcessDefinition d, long applicationId, Instant at) {
        return update("""
                        INSERT INTO process_definition (process_id, parent_process_id, process_name, process_type_id,
                          can_recover, enqueuing_process_ids, batch_cut_pattern, next_process_ids, deleted,
                          workflow_type_id, properties, application_id, source_occurred_at)
                        VALUES (:id, :parent, :name, :type, :canRecover,
                          CAST(string_to_array(:enqueuers, ',') AS bigint[]), :bcp,
                          CAST(string_to_array(:next, ',') AS bigint[]), :deleted, :workflow,
                          CAST(CAST(:properties AS text) AS jsonb), :application, :at)
                        ON CONFLICT (process_id) DO UPDATE SET parent_process_id = EXCLUDED.parent_process_id,
                          process_name = EXCLUDED.process_name, process_type_id = EXCLUDED.process_type_id,
                          can_recover = EXCLUDED.can_recover, enqueuing_process_ids = EXCLUDED.enqueuing_process_ids,
                          batch_cut_pattern = EXCLUDED.batch_cut_pattern, next_process_ids = EXCLUDED.next_process_ids,
                          deleted = EXCLUDED.deleted, workflow_type_id = EXCLUDED.workflow_type_id,
                          properties = EXCLUDED.properties, application_id = EXCLUDED.application_id,
                          source_occurred_at = EXCLUDED.source_occurred_at
                        WHERE process_definition.source_occurred_at <= EXCLUDED.source_occurred_at""",
                Params.of("id", d.processId()).and("parent", d.parentProcessId()).and("name", d.name())
                        .and("type", d.processTypeId()).and("canRecover", d.canRecover())
                        .and("enqueuers", csv(d.enqueuingProcessIds())).and("bcp", d.batchCutPattern())
                        .and("next", csv(d.nextProcessIds())).and("deleted", d.deleted())
                        .and("workflow", d.workflowTypeId()).and("properties", json(d.properties()))
                        .and("application", applicationId).and("at", OffsetDateTime.ofInstant(at, ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    /** Marks processes deleted, again only over states older than {@code at}. */
    Uni<Void> markDeleted(Collection<Long> processIds, Instant at) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                        UPDATE process_definition SET deleted = true, source_occurred_at = :at
                        WHERE process_id IN (:ids) AND source_occurred_at <= :at""",
                Params.of("ids", processIds).and("at", OffsetDateTime.ofInstant(at, ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    private Uni<Optional<Guarded>> guarded(String sql, long id) {
        return first(sql, Params.of("id", id), ProcessDefinitionRepository::guarded);
    }

    private static Guarded guarded(Row r) {
        return new Guarded(map(r), r.get("application_id") == null
                ? Optional.empty() : Optional.of(ApplicationAccessRepository.map(r)));
    }

    private Uni<Optional<ProcessDefinition>> one(String sql, long id) {
        return first(sql, Params.of("id", id), ProcessDefinitionRepository::map);
    }

    private Uni<List<ProcessDefinition>> definitions(String sql, Params params) {
        return list(sql, params, ProcessDefinitionRepository::map);
    }

    private static ProcessDefinition map(Row r) {
        try {
            return new ProcessDefinition(r.getLong("process_id"), r.getLongOrNull("parent_process_id"),
                    r.getString("process_name"), r.getInt("process_type_id"), r.getBoolean("can_recover"),
                    r.getLongs("enqueuing_process_ids"), r.getString("batch_cut_pattern"),
                    r.getLongs("next_process_ids"), r.getBoolean("deleted"), r.getInt("workflow_type_id"),
                    JSON.readValue(r.getString("properties"), PROPERTIES));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable properties of process " + r.get("process_id"), e);
        }
    }

    private static String csv(List<Long> ids) {
        return String.join(",", ids.stream().map(String::valueOf).toList());
    }

    private static String json(List<ProcessDefinition.Property> properties) {
        try {
            return JSON.writeValueAsString(properties);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
