package io.batchyard.execution.processlog;

import static io.batchyard.persistence.Columns.longOrNull;
import static io.batchyard.persistence.Columns.time;
import static io.batchyard.persistence.Columns.toLong;

import io.batchyard.execution.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/** process_log: the key/value execution statistics of processes, newest entry = highest log_id. */
@ApplicationScoped
public class ProcessLogRepository extends SqlRepository {

    private static final String COLUMNS = """
            SELECT log_id, process_id, log_category, message_id, message, instance_ref, add_ts FROM process_log""";

    /** The optional filters of a listing; null matches everything. */
    private static final String FILTER = " WHERE process_id = :pid"
            + " AND (CAST(:category AS text) IS NULL OR log_category = CAST(:category AS text))"
            + " AND (CAST(:messageId AS text) IS NULL OR message_id = CAST(:messageId AS text))"
            + " AND (CAST(:instanceRef AS bigint) IS NULL OR instance_ref = CAST(:instanceRef AS bigint))";

    /** A listing's filters. */
    public record Filter(long processId, String category, String messageId, Long instanceRef) {
    }

    /** Inserts an entry; without {@code addTs} the database's clock stamps it. */
    Uni<ProcessLogEntry> insert(long processId, String category, String messageId, String message, Long instanceRef,
                                OffsetDateTime addTs) {
        return row("""
                INSERT INTO process_log (process_id, log_category, message_id, message, instance_ref, add_ts)
                VALUES (:pid, :category, :messageId, :message, CAST(:instanceRef AS bigint),
                        COALESCE(CAST(:addTs AS timestamptz), now()))
                RETURNING log_id, process_id, log_category, message_id, message, instance_ref, add_ts""",
                params("pid", processId).and("category", category).and("messageId", messageId)
                        .and("message", message).and("instanceRef", instanceRef).and("addTs", addTs),
                ProcessLogRepository::entry).map(Optional::orElseThrow);
    }

    Uni<Optional<ProcessLogEntry>> find(long processId, long logId) {
        return row(COLUMNS + " WHERE process_id = :pid AND log_id = :logId",
                params("pid", processId).and("logId", logId), ProcessLogRepository::entry);
    }

    Uni<List<ProcessLogEntry>> list(Filter f, int limit, int offset) {
        return rows(COLUMNS + FILTER + " ORDER BY log_id DESC LIMIT :limit OFFSET :offset",
                filter(f).and("limit", limit).and("offset", offset), ProcessLogRepository::entry);
    }

    Uni<Long> count(Filter f) {
        return value("SELECT count(*) FROM process_log" + FILTER, Long.class, filter(f));
    }

    /** The newest entry of a message in a category. */
    Uni<Optional<ProcessLogEntry>> last(long processId, String messageId, String category) {
        return row(COLUMNS + " WHERE process_id = :pid AND message_id = :messageId AND log_category = :category"
                        + " ORDER BY log_id DESC LIMIT 1",
                params("pid", processId).and("messageId", messageId).and("category", category),
                ProcessLogRepository::entry);
    }

    /** Every entry of a message whose instance_ref is the highest it has; none when no entry has one. */
    Uni<List<ProcessLogEntry>> withLastInstanceRef(long processId, String messageId) {
        return rows(COLUMNS + " WHERE process_id = :pid AND message_id = :messageId AND instance_ref = ("
                        + "SELECT max(instance_ref) FROM process_log WHERE process_id = :pid AND message_id = :messageId)"
                        + " ORDER BY log_id DESC",
                params("pid", processId).and("messageId", messageId), ProcessLogRepository::entry);
    }

    private static Params filter(Filter f) {
        return params("pid", f.processId()).and("category", f.category()).and("messageId", f.messageId())
                .and("instanceRef", f.instanceRef());
    }

    private static ProcessLogEntry entry(Object[] r) {
        return new ProcessLogEntry(toLong(r[0]), toLong(r[1]), (String) r[2], (String) r[3], (String) r[4],
                longOrNull(r[5]), time(r[6]));
    }
}
