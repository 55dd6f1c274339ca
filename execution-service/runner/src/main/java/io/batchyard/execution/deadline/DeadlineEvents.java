package io.batchyard.execution.deadline;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.execution.DeadlineChanged;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * One {@code DeadlineChanged} per transition of a deadline, appended to the outbox in the transaction that made it:
 * a transition and its event commit together or not at all, so each is announced exactly once, across restarts too.
 * Key = the parent id, so one parent's deadlines stay in order.
 */
@ApplicationScoped
public class DeadlineEvents {

    static final String PRODUCER = "execution-service";

    private final Outbox outbox;

    public DeadlineEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    Uni<Deadline> changed(Deadline d) {
        return outbox.append(Topics.EXECUTION_DEADLINES, d.processId(), event(d)).replaceWith(d);
    }

    /** One event per deadline, appended together: a firing batch of hundreds is a few statements, not hundreds. */
    Uni<List<Deadline>> changed(List<Deadline> deadlines) {
        return outbox.appendAll(Topics.EXECUTION_DEADLINES, deadlines, Deadline::processId, DeadlineEvents::event)
                .replaceWith(deadlines);
    }

    private static DeadlineChanged event(Deadline d) {
        return DeadlineChanged.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setDeadlineId(d.deadlineId()).setProcessId(d.processId()).setBucket(d.bucket())
                .setKind(d.kind().name()).setDueAt(instant(d.dueAt())).setState(d.state().name())
                .setPreviousState(d.previous() == null ? null : d.previous().name()).setEta(instant(d.eta()))
                .setBlockerProcessId(d.blockerProcessId()).setBlockerReason(d.blockerReason())
                .setReason(d.state() == DeadlineState.WAIVED ? d.waiveReason() : null)
                .build();
    }

    private static java.time.Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
