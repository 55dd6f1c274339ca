package io.batchyard.eventing;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Work the way a service does it, for TracingAcrossKafkaTest: a call that changes something and appends its event in
 * the same transaction, and a consumer that applies the records of that event's topic through {@link RecordProcessor}
 * and appends an event of its own (channel {@code traced}, configured in the test application.properties).
 */
@Path("/tracing-test")
@ApplicationScoped
public class TracedWork {

    /** The topic the call's events go to and the consumer reads. */
    static final String TOPIC = "eventing-test.traced";
    /** The topic of the events the consumer appends. */
    static final String FOLLOW_UP = "eventing-test.traced.follow-up";

    private final Outbox outbox;
    private final RecordProcessor records;

    public TracedWork(Outbox outbox, RecordProcessor records) {
        this.outbox = outbox;
        this.records = records;
    }

    /** Appends one event keyed {@code key} in a transaction of its own; answers the event's id. */
    @POST
    @Path("{key}")
    @Produces(MediaType.TEXT_PLAIN)
    public Uni<String> call(@PathParam("key") long key) {
        ProcessDeleted event = EventingFixture.event(key);
        return Panache.withTransaction(() -> outbox.append(TOPIC, key, event))
                .replaceWith(Events.eventId(event).toString());
    }

    /** Answers every event of {@link #TOPIC} with one of {@link #FOLLOW_UP}, under the same key. */
    @Incoming("traced")
    public Uni<Void> consume(Message<ProcessDeleted> record) {
        return records.process("tracing-test", record, event -> Panache.withTransaction(() -> outbox.append(
                FOLLOW_UP, event.getParentProcessId(), EventingFixture.event(event.getParentProcessId()))));
    }
}
