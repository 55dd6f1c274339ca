package io.batchyard.eventing;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** The consumers' ledger table; its statement joins the caller's transaction. */
@ApplicationScoped
public class ProcessedEventRepository {

    /** Records the event for the consumer; false if it was already there. */
    Uni<Boolean> insertIfAbsent(String consumer, UUID eventId, String eventType) {
        return Transactions.current().chain(session -> session.createNativeQuery("""
                        INSERT INTO processed_event (consumer, event_id, event_type) VALUES (:consumer, :id, :type)
                        ON CONFLICT DO NOTHING""")
                .setParameter("consumer", consumer)
                .setParameter("id", eventId)
                .setParameter("type", eventType)
                .executeUpdate()
                .map(inserted -> inserted == 1));
    }
}
