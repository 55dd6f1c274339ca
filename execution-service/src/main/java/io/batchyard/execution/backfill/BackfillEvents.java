package io.batchyard.execution.backfill;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.execution.BackfillFinished;
import io.batchyard.events.execution.BackfillProgress;
import io.batchyard.events.execution.BackfillStarted;
import io.batchyard.execution.backfill.BackfillRequest.Root;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumSet;

/**
 * A backfill's events, appended to the outbox in the transaction that made the change, so each is published exactly
 * when its change commits. Key = the backfill id: one backfill's events stay in order.
 */
@ApplicationScoped
public class BackfillEvents {

    static final String PRODUCER = "execution-service";
    private static final EnumSet<BackfillState> ENDS =
            EnumSet.of(BackfillState.SUCCEEDED, BackfillState.FAILED, BackfillState.CANCELLED);

    private final Outbox outbox;

    public BackfillEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    Uni<Void> started(Backfill b, BackfillPlan plan) {
        return outbox.append(Topics.EXECUTION_BACKFILLS, b.backfillId().toString(), BackfillStarted.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setBackfillId(b.backfillId().toString()).setPlanId(plan.planId().toString())
                .setRootProcessIds(plan.request().roots().stream().map(Root::processId).distinct().toList())
                .setEntries(plan.entries().size()).setLevels(plan.levels()).setConcurrency(b.concurrency())
                .setOnFailure(b.onFailure()).setEstimatedMs(plan.estimatedMs())
                .build());
    }

    /** A move: {@code BackfillFinished} into an end, {@code BackfillProgress} otherwise. */
    Uni<Void> moved(Backfill b, BackfillState to, BackfillPlan plan) {
        String key = b.backfillId().toString();
        if (ENDS.contains(to)) {
            return outbox.append(Topics.EXECUTION_BACKFILLS, key, BackfillFinished.newBuilder()
                    .setHeader(Events.header(PRODUCER, null, null)).setBackfillId(key).setState(to.name())
                    .setPreviousState(b.state().name()).setEntries(plan.entries().size()).setEntriesSucceeded(0)
                    .setEntriesFailed(0).build());
        }
        return outbox.append(Topics.EXECUTION_BACKFILLS, key, BackfillProgress.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null)).setBackfillId(key).setState(to.name())
                .setPreviousState(b.state().name()).setEntries(plan.entries().size()).setEntriesSucceeded(0)
                .setEntriesFailed(0).build());
    }
}
