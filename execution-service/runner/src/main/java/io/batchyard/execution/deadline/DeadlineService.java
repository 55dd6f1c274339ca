package io.batchyard.execution.deadline;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.WhyNotRunning;
import io.batchyard.persistence.InOrder;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Data deadlines' use cases. The watch ({@link DeadlineWatch}) calls {@link #materialise}, {@link #settle},
 * {@link #fire} and {@link #estimate} on the service clock, each one transaction in which every transition and its
 * event commit together; people list and waive through the API. Seeing a deadline needs read permission on its
 * process's application, waiving one execute; to a caller without read it does not exist (440).
 */
@ApplicationScoped
public class DeadlineService {

    /** How many buckets of one parent one pass materialises: a definition far behind catches up over a few passes. */
    static final int BUCKETS_PER_PASS = 500;
    /** Longest waiver reason and blocker explanation kept. */
    static final int MAX_TEXT = 2000;

    private final DeadlineRepository deadlines;
    private final DeadlineDefinitionRepository definitions;
    private final DeadlineEvents events;
    private final ProcessPermission permission;
    private final WhyNotRunning why;
    private final ServiceClock clock;
    private final DeadlineConfig config;

    public DeadlineService(DeadlineRepository deadlines, DeadlineDefinitionRepository definitions,
                           DeadlineEvents events, ProcessPermission permission, WhyNotRunning why, ServiceClock clock,
                           DeadlineConfig config) {
        this.config = config;
        this.deadlines = deadlines;
        this.definitions = definitions;
        this.events = events;
        this.permission = permission;
        this.why = why;
        this.clock = clock;
    }

    /**
     * Creates the deadlines of every bucket that has become expected by {@code now}, each announced SET, for up to
     * {@code definitionsPerPass} parents, in a few statements whatever their number. A bucket becomes expected the
     * lookahead ({@code batchyard.deadlines.lookahead}) before it starts to be worked on: the bucket in progress at
     * {@code now} plus the lookahead, and every one before it since the last pass (after a downtime, those it missed).
     * Ahead of time, so that announcing the next buckets never competes with firing the deadlines of the ones that just
     * ended. Answers how many parents it took.
     */
    @WithTransaction
    public Uni<Integer> materialise(OffsetDateTime now, int definitionsPerPass) {
        OffsetDateTime horizon = now.plus(config.lookahead());
        return definitions.lockBehind(horizon, definitionsPerPass).chain(behind -> {
            List<DeadlineRepository.NewDeadline> rows = new ArrayList<>();
            Map<Long, Instant> until = new HashMap<>();
            for (DeadlineDefinition d : behind) {
                until.put(d.processId(), expected(d, horizon.toInstant(), rows));
            }
            return deadlines.insertAll(rows).chain(events::changed)
                    .call(() -> definitions.advance(until))
                    .replaceWith(behind.size());
        });
    }

    /** Adds the deadlines of {@code definition}'s buckets ending by {@code horizon}; answers how far that reaches. */
    private static Instant expected(DeadlineDefinition definition, Instant horizon,
                                    List<DeadlineRepository.NewDeadline> rows) {
        DeadlineSpec spec = definition.spec();
        Instant upTo = spec.nextEnd(horizon);
        List<DeadlineSpec.Expected> expected = spec.endingBetween(definition.materialisedUntil().toInstant(), upTo,
                BUCKETS_PER_PASS);
        for (DeadlineSpec.Expected e : expected) {
            for (DeadlineKind kind : kinds(spec)) {
                rows.add(new DeadlineRepository.NewDeadline(definition.processId(), e.bucket(), kind, e.end(),
                        kind == DeadlineKind.RUNTIME ? null
                                : spec.due(e.end(), kind == DeadlineKind.START ? spec.startBy() : spec.finishBy())));
            }
        }
        return expected.size() == BUCKETS_PER_PASS ? expected.get(expected.size() - 1).end() : upTo;
    }

    private static List<DeadlineKind> kinds(DeadlineSpec spec) {
        List<DeadlineKind> kinds = new ArrayList<>();
        if (spec.startBy() != null) {
            kinds.add(DeadlineKind.START);
        }
        if (spec.finishBy() != null) {
            kinds.add(DeadlineKind.FINISH);
        }
        if (spec.maxRuntime() != null) {
            kinds.add(DeadlineKind.RUNTIME);
        }
        return kinds;
    }

    /**
     * MET or RECOVERED for the deadlines whose bucket's run did what they promise, as the bucket ledger tells, and
     * the clock of RUNTIME deadlines whose run began. Runs before {@link #fire}, so a bucket finished in time is MET,
     * not MISSED.
     */
    @WithTransaction
    public Uni<List<Deadline>> settle(OffsetDateTime now, int limit) {
        return deadlines.startRuntimes(now).chain(() -> deadlines.settle(now, limit, false)).chain(events::changed);
    }

    /**
     * {@link #settle} for the due deadlines only (their runs' clocks are started by the full settle), which the watch
     * runs between checks before firing: a bucket finished just before its deadline is MET, not MISSED.
     */
    @WithTransaction
    public Uni<List<Deadline>> settleDue(OffsetDateTime now, int limit) {
        return deadlines.settle(now, limit, true).chain(events::changed);
    }

    /** MISSED for up to {@code limit} due deadlines, whether a run of their bucket exists or not. */
    @WithTransaction
    public Uni<List<Deadline>> fire(OffsetDateTime now, int limit) {
        return deadlines.fireDue(now, limit).chain(events::changed);
    }

    /**
     * AT_RISK for the open FINISH deadlines whose estimate passed them, naming the process the bucket waits for and
     * why it is not running (the runner's /why answer). No history, no estimate: such a deadline is only MISSED.
     */
    @WithTransaction
    public Uni<List<Deadline>> estimate(OffsetDateTime now, int limit) {
        return deadlines.openFinishes(now, limit).chain(open -> InOrder.map(open.stream()
                        .filter(d -> d.state() == DeadlineState.SET).toList(), d -> atRiskIfLate(d, now)))
                .map(found -> found.stream().flatMap(Optional::stream).toList());
    }

    private Uni<Optional<Deadline>> atRiskIfLate(Deadline d, OffsetDateTime now) {
        return deadlines.chain(d.processId(), d.bucket()).chain(chain -> {
            Optional<CriticalPath.Estimate> estimate = CriticalPath.estimate(chain, now.toInstant());
            if (estimate.isEmpty() || !estimate.get().eta().isAfter(d.dueAt().toInstant())) {
                return Uni.createFrom().item(Optional.<Deadline>empty());
            }
            long blocker = estimate.get().blocker();
            OffsetDateTime eta = estimate.get().eta().atOffset(ZoneOffset.UTC);
            return why.explain(blocker, d.bucket(), now.toLocalDateTime())
                    .map(answer -> clip("process " + blocker + (answer.reasons().isEmpty() ? ": no reason given"
                            : ": " + answer.reasons().stream().map(DeadlineService::reason)
                                    .collect(Collectors.joining("; ")))))
                    .chain(reason -> deadlines.atRisk(d.deadlineId(), eta, blocker, reason))
                    .call(moved -> moved.map(events::changed).orElse(Uni.createFrom().nullItem()));
        });
    }

    private static String reason(Planner.Reason r) {
        return r.code() + " (" + r.message() + ")";
    }

    /** The deadlines {@code caller} may read, soonest due first, filtered in the query so page and total agree. */
    @WithSession
    public Uni<Page<Deadline>> list(Caller caller, DeadlineState state, Long processId, PageRequest page) {
        return permission.readable(caller).chain(applications -> deadlines.list(state, processId, applications,
                        page.limit(), page.offset())
                .chain(items -> deadlines.count(state, processId, applications)
                        .map(total -> Page.of(items, total, page))));
    }

    @WithSession
    public Uni<Deadline> get(Caller caller, long deadlineId) {
        return deadlines.find(deadlineId).map(found -> found.orElseThrow(() -> unknown(deadlineId)))
                .call(d -> permission.require(caller, d.processId(), Permission.READ, () -> unknown(deadlineId)));
    }

    /**
     * WAIVED with the operator's reason: the deadline no longer counts. Only an open one (SET, AT_RISK, MISSED) can
     * be waived (441); the caller needs execute on the process's application.
     */
    @WithTransaction
    public Uni<Deadline> waive(Caller caller, long deadlineId, String reason) {
        Supplier<ApiException> unknown = () -> unknown(deadlineId);
        return deadlines.find(deadlineId).map(found -> found.orElseThrow(unknown))
                .call(d -> permission.require(caller, d.processId(), Permission.EXECUTE, unknown))
                .chain(d -> deadlines.waive(deadlineId, clip(reason), clock.now())
                        .map(moved -> moved.orElseThrow(() -> ExecutionError.DEADLINE_NOT_OPEN.exception(
                                "deadline " + deadlineId + " is " + d.state() + ": only SET, AT_RISK or MISSED can be"
                                        + " waived"))))
                .chain(events::changed);
    }

    /** How many deadlines are in each state, and how long the oldest due one has waited to fire (zero: none). */
    @WithSession
    public Uni<Map<DeadlineState, Long>> countByState() {
        return deadlines.countByState();
    }

    /** The soonest due time of an open deadline; empty when none has one. */
    @WithSession
    public Uni<Optional<OffsetDateTime>> nextDue() {
        return deadlines.nextDue();
    }

    @WithSession
    public Uni<Duration> checkerLag(OffsetDateTime now) {
        return deadlines.oldestUnfired(now).map(oldest -> oldest.map(t -> Duration.between(t, now))
                .orElse(Duration.ZERO));
    }

    private static ApiException unknown(long deadlineId) {
        return ExecutionError.UNKNOWN_DEADLINE.exception("no deadline " + deadlineId);
    }

    private static String clip(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip();
        return t.length() <= MAX_TEXT ? t : t.substring(0, MAX_TEXT - 1) + "…";
    }
}
