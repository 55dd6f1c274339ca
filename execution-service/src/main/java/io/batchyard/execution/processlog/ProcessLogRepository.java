package io.batchyard.execution.processlog;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
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

    /** A listing's filters: the process, and optional ones that match everything when null. */
    public record Filter(long processId, String category, String messageId, Long instanceRef) {
    }

    /** Inserts an entry; without {@code addTs} the database's clock stamps it. */
    Uni<ProcessLogEntry> insert(long processId, String category, String messageId, String message, Long instanceRef,
                                OffsetDateTime addTs) {
        return first("""
                INSERT INTO process_log (process_id, log_category, message_id, message, instance_ref, add_ts)
                VALUES (:pid, :category, :messageId, :message, CAST(:instanceRef AS bigint),
                        COALESCE(CAST(:addTs AS timestamptz), now()))
                RETURNING log_id, process_id, log_category, message_id, message, instance_ref, add_ts""",
                Params.of("pid", processId).and("category", category).and("messageId", messageId)
                        .and("message", message).and("instanceRef", instanceRef).and("addTs", addTs),
                ProcessLogRepository::entry).map(Optional::orElseThrow);
    }

    Uni<Optional<ProcessLogEntry>> find(long processId, long logId) {
        return first(COLUMNS + " WHERE process_id = :pid AND log_id = :logId",
                Params.of("pid", processId).and("logId", logId), ProcessLogRepository::entry);
    }

    Uni<List<ProcessLogEntry>> list(Filter f, int limit, int offset) {
        Where where = where(f);
        return list(COLUMNS + where.sql() + " ORDER BY log_id DESC" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), ProcessLogRepository::entry);
    }

    Uni<Long> count(Filter f) {
        Where where = where(f);
        return single("SELECT count(*) FROM process_log" + where.sql(), Long.class, where.params());
    }

    /** The newest entry of a message in a category. */
    Uni<Optional<ProcessLogEntry>> last(long processId, String messageId, String category) {
        return first(COLUMNS + " WHERE process_id = :pid AND message_id = :messageId AND log_category = :category"
                        + " ORDER BY log_id DESC LIMIT 1",
                Params.of("pid", processId).and("messageId", messageId).and("category", category),
                ProcessLogRepository::entry);
    }

    /** Every entry of a message whose instance_ref is the highest it has; none when no entry has one. */
    Uni<List<ProcessLogEntry>> withLastInstanceRef(long processId, String messageId) {
        return list(COLUMNS + " WHERE process_id = :pid AND message_id = :messageId AND instance_ref = ("
                        + "SELECT max(instance_ref) FROM process_log WHERE process_id = :pid AND message_id = :messageId)"
                        + " ORDER BY log_id DESC",
                Params.of("pid", processId).and("messageId", messageId), ProcessLogRepository::entry);
    }

    private static Where where(Filter f) {
        return Where.all().eq("process_id", f.processId()).eq("log_category", f.category())
                .eq("message_id", f.messageId()).eq("instance_ref", f.instanceRef());
    }

    private static ProcessLogEntry entry(Row r) {
        return new ProcessLogEntry(r.getLong("log_id"), r.getLong("process_id"), r.getString("log_category"),
                r.getString("message_id"), r.getString("message"), r.getLongOrNull("instance_ref"),
                r.getTime("add_ts"));
    }
}
