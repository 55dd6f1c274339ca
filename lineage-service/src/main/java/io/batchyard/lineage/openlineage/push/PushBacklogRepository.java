package io.batchyard.lineage.openlineage.push;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * The RunEvents releases before the platform outbox left undelivered in their own push outbox
 * ({@code openlineage_outbox}, one row per event and transport, sent in {@code event_seq} order per run). Nothing
 * writes there any more; {@link PushBacklogService} moves what is left into the platform outbox.
 */
@ApplicationScoped
public class PushBacklogRepository extends SqlRepository {

    /** An undelivered row: its event, and the transports a sibling row of the same event was already sent through. */
    public record Pending(long seq, String transport, UUID runId, String eventType, String payload,
                          OffsetDateTime createdAt, Long instanceExecId, List<String> sentThrough) {
    }

    /**
     * Every undelivered row in {@code event_seq} order, locked until the caller's transaction ends: a replica starting
     * at the same time waits, then finds the rows this one moved gone. A run's rows of one event (one per transport)
     * share its payload; those already sent name their transport in {@link Pending#sentThrough}.
     */
    public Uni<List<Pending>> undelivered() {
        return list("""
                        SELECT o.event_seq, o.transport, o.run_id, o.event_type, o.payload, o.created_at,
                               (SELECT r.instance_exec_id FROM openlineage_run r WHERE r.run_id = o.run_id)
                                   AS instance_exec_id,
                               (SELECT CAST(array_to_json(array_agg(s.transport ORDER BY s.transport)) AS text)
                                  FROM openlineage_outbox s
                                 WHERE s.run_id = o.run_id AND s.payload = o.payload AND s.sent_at IS NOT NULL)
                                   AS sent_through
                          FROM openlineage_outbox o
                         WHERE o.sent_at IS NULL
                         ORDER BY o.event_seq
                           FOR UPDATE OF o""", Params.none(), PushBacklogRepository::pending);
    }

    /** Forgets rows whose events are in the platform outbox now. */
    public Uni<Integer> delete(List<Long> seqs) {
        if (seqs.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return update("DELETE FROM openlineage_outbox WHERE event_seq IN (:seqs)", Params.of("seqs", seqs));
    }

    private static Pending pending(Row r) {
        return new Pending(r.getLong("event_seq"), r.getString("transport"), r.getUuid("run_id"),
                r.getString("event_type"), r.getString("payload"), r.getTime("created_at"),
                r.getLongOrNull("instance_exec_id"), r.getStrings("sent_through"));
    }
}
