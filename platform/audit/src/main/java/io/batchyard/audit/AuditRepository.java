package io.batchyard.audit;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The audit trail's table; every method joins the caller's session but {@link #insertAll} and {@link #deleteOlderThan},
 * which use the pool.
 */
@ApplicationScoped
public class AuditRepository extends SqlRepository {

    private final Pool pool;

    public AuditRepository(Pool pool) {
        this.pool = pool;
    }

    Uni<Void> insert(AuditEntry e) {
        return update("""
                        INSERT INTO audit_entry (subject, channel, action, process_id, outcome, problem_code,
                          correlation_id)
                        VALUES (:subject, :channel, :action, CAST(:processId AS bigint), :outcome,
                          CAST(:code AS int), CAST(:correlation AS text))""",
                Params.of("subject", e.subject()).and("channel", e.channel().name()).and("action", e.action())
                        .and("processId", e.processId()).and("outcome", e.outcome()).and("code", e.problemCode())
                        .and("correlation", e.correlationId())).replaceWithVoid();
    }

    /**
     * Inserts {@code entries} with one statement on the pool, outside any transaction of the caller (a single
     * statement is its own transaction): the HTTP trail's entries, written after their answers went out, each with the
     * time it was taken.
     */
    Uni<Void> insertAll(List<AuditEntry> entries) {
        int n = entries.size();
        OffsetDateTime[] at = new OffsetDateTime[n];
        String[] subject = new String[n];
        String[] channel = new String[n];
        String[] action = new String[n];
        Long[] processId = new Long[n];
        String[] outcome = new String[n];
        Integer[] code = new Integer[n];
        String[] correlation = new String[n];
        for (int i = 0; i < n; i++) {
            AuditEntry e = entries.get(i);
            at[i] = OffsetDateTime.ofInstant(e.occurredAt(), ZoneOffset.UTC);
            subject[i] = e.subject();
            channel[i] = e.channel().name();
            action[i] = e.action();
            processId[i] = e.processId();
            outcome[i] = e.outcome();
            code[i] = e.problemCode();
            correlation[i] = e.correlationId();
        }
        return pool.preparedQuery("""
                        INSERT INTO audit_entry (occurred_at, subject, channel, action, process_id, outcome, problem_code,
                          correlation_id)
                        SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::bigint[],
                          $6::text[], $7::int[], $8::text[])""")
                .execute(Tuple.from(List.<Object>of(at, subject, channel, action, processId, outcome, code, correlation)))
                .replaceWithVoid();
    }

    /**
     * Deletes at most {@code limit} entries older than {@code window}, in one statement on the pool (its own
     * transaction), skipping rows another replica's pruner holds; the count. {@code audit_entry_time} finds them.
     */
    Uni<Integer> deleteOlderThan(Duration window, int limit) {
        return pool.preparedQuery("""
                        DELETE FROM audit_entry WHERE audit_id IN (
                            SELECT audit_id FROM audit_entry
                            WHERE occurred_at < now() - make_interval(secs => $1)
                            LIMIT $2 FOR UPDATE SKIP LOCKED)""")
                .execute(Tuple.of(window.toMillis() / 1000.0, limit))
                .map(rows -> rows.rowCount());
    }

    /** Newest first. */
    Uni<List<AuditEntry>> list(AuditFilter f, int limit, int offset) {
        Where where = where(f);
        return list("""
                        SELECT audit_id, occurred_at, subject, channel, action, process_id, outcome, problem_code,
                          correlation_id
                        FROM audit_entry""" + where.sql() + " ORDER BY occurred_at DESC, audit_id DESC" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), AuditRepository::map);
    }

    Uni<Long> count(AuditFilter f) {
        Where where = where(f);
        return single("SELECT count(*) FROM audit_entry" + where.sql(), Long.class, where.params());
    }

    private static Where where(AuditFilter f) {
        return Where.all().eq("subject", f.subject()).eq("process_id", f.processId())
                .atLeast("occurred_at", f.from() == null ? null : OffsetDateTime.ofInstant(f.from(), ZoneOffset.UTC))
                .before("occurred_at", f.to() == null ? null : OffsetDateTime.ofInstant(f.to(), ZoneOffset.UTC));
    }

    private static AuditEntry map(Row r) {
        return new AuditEntry(r.getLong("audit_id"), r.getTime("occurred_at").toInstant(), r.getString("subject"),
                r.getEnum("channel", AuditEntry.Channel.class), r.getString("action"), r.getLongOrNull("process_id"),
                r.getString("outcome"), r.getIntOrNull("problem_code"), r.getString("correlation_id"));
    }
}
