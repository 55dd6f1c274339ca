package io.batchyard.audit;

import io.batchyard.persistence.Columns;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * The audit trail's table; every method joins the caller's session but {@link #insertAll} and {@link #deleteOlderThan},
 * which use the pool.
 */
@ApplicationScoped
public class AuditRepository {

    private static final String WHERE = """
            (CAST(:subject AS text) IS NULL OR subject = CAST(:subject AS text))
            AND (CAST(:processId AS bigint) IS NULL OR process_id = CAST(:processId AS bigint))
            AND (CAST(:from AS timestamptz) IS NULL OR occurred_at >= CAST(:from AS timestamptz))
            AND (CAST(:to AS timestamptz) IS NULL OR occurred_at < CAST(:to AS timestamptz))""";

    private final Pool pool;

    public AuditRepository(Pool pool) {
        this.pool = pool;
    }

    Uni<Void> insert(AuditEntry e) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO audit_entry (subject, channel, action, process_id, outcome, problem_code,
                          correlation_id)
                        VALUES (:subject, :channel, :action, CAST(:processId AS bigint), :outcome,
                          CAST(:code AS int), CAST(:correlation AS text))""")
                .setParameter("subject", e.subject())
                .setParameter("channel", e.channel().name())
                .setParameter("action", e.action())
                .setParameter("processId", e.processId())
                .setParameter("outcome", e.outcome())
                .setParameter("code", e.problemCode())
                .setParameter("correlation", e.correlationId())
                .executeUpdate()).replaceWithVoid();
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
        return Panache.getSession().chain(s -> bind(s.createNativeQuery("""
                        SELECT audit_id, occurred_at, subject, channel, action, process_id, outcome, problem_code,
                          correlation_id
                        FROM audit_entry WHERE """ + WHERE + """

                        ORDER BY occurred_at DESC, audit_id DESC LIMIT :limit OFFSET :offset""", Object[].class), f)
                .setParameter("limit", limit)
                .setParameter("offset", offset)
                .getResultList())
                .map(rows -> rows.stream().map(AuditRepository::map).toList());
    }

    Uni<Long> count(AuditFilter f) {
        return Panache.getSession().chain(s -> bind(s.createNativeQuery(
                        "SELECT count(*) FROM audit_entry WHERE " + WHERE, Long.class), f).getSingleResult());
    }

    private static <T> Mutiny.SelectionQuery<T> bind(Mutiny.SelectionQuery<T> q, AuditFilter f) {
        return q.setParameter("subject", f.subject())
                .setParameter("processId", f.processId())
                .setParameter("from", f.from() == null ? null : OffsetDateTime.ofInstant(f.from(), ZoneOffset.UTC))
                .setParameter("to", f.to() == null ? null : OffsetDateTime.ofInstant(f.to(), ZoneOffset.UTC));
    }

    private static AuditEntry map(Object[] r) {
        return new AuditEntry(Columns.toLong(r[0]), Columns.time(r[1]).toInstant(), Columns.string(r[2]),
                AuditEntry.Channel.valueOf(Columns.string(r[3])), Columns.string(r[4]), Columns.longOrNull(r[5]),
                Columns.string(r[6]), Columns.intOrNull(r[7]), Columns.string(r[8]));
    }
}
