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
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

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
                .setEntries(plan.entriesThatRun().size()).setLevels(plan.levels()).setConcurrency(b.concurrency())
                .setOnFailure(b.onFailure()).setEstimatedMs(plan.estimatedMs())
                .build());
    }

    /** How many of a backfill's entries are where. */
    public record Counts(int entries, int succeeded, int failed, int skipped, int inFlight) {

        static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        /** The counts of these entries, all of the backfill's. */
        static Counts of(List<EntryRun> entries) {
            return of(entries.stream().collect(Collectors.groupingBy(EntryRun::state, Collectors.counting())));
        }

        /** The counts of a backfill whose entries are in these states (each state's number of entries). */
        static Counts of(Map<EntryState, Long> byState) {
            BackfillProgressView.Level all = BackfillProgressView.Level.of(0, byState);
            return new Counts(all.entries(), all.succeeded(), all.failed(), all.skipped(), all.running());
        }
    }

    /** A move: {@code BackfillFinished} into an end, {@code BackfillProgress} otherwise. */
    Uni<Void> moved(Backfill b, BackfillState to, BackfillPlan plan) {
        return moved(b, to, plan.entriesThatRun().size(), Counts.NONE);
    }

    /** A move with where the entries are: {@code BackfillFinished} into an end, {@code BackfillProgress} otherwise. */
    Uni<Void> moved(Backfill b, BackfillState to, int planned, Counts counts) {
        String key = b.backfillId().toString();
        if (ENDS.contains(to)) {
            return outbox.append(Topics.EXECUTION_BACKFILLS, key, BackfillFinished.newBuilder()
                    .setHeader(Events.header(PRODUCER, null, null)).setBackfillId(key).setState(to.name())
                    .setPreviousState(b.state().name()).setEntries(planned).setEntriesSucceeded(counts.succeeded())
                    .setEntriesFailed(counts.failed()).setEntriesSkipped(counts.skipped()).build());
        }
        return outbox.append(Topics.EXECUTION_BACKFILLS, key, progress(b, to, counts).setEntries(planned)
                .setPreviousState(b.state().name()).build());
    }

    /** One entry started (STARTING) or ended. */
    Uni<Void> entry(Backfill b, EntryRun e, EntryState now, Long instanceExecId, String message, Counts counts) {
        return outbox.append(Topics.EXECUTION_BACKFILLS, b.backfillId().toString(), progress(b, b.state(), counts)
                .setEntryNo(e.entryNo()).setEntryState(now.name()).setLevel(e.level()).setProcessId(e.processId())
                .setBucket(e.bucket()).setInstanceExecId(instanceExecId).setMessage(message).build());
    }

    private static BackfillProgress.Builder progress(Backfill b, BackfillState state, Counts counts) {
        return BackfillProgress.newBuilder().setHeader(Events.header(PRODUCER, null, null))
                .setBackfillId(b.backfillId().toString()).setState(state.name()).setEntries(counts.entries())
                .setEntriesSucceeded(counts.succeeded()).setEntriesFailed(counts.failed())
                .setEntriesSkipped(counts.skipped()).setEntriesRunning(counts.inFlight());
    }
}
