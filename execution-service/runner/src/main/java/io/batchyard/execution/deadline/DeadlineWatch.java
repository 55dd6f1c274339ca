package io.batchyard.execution.deadline;

import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.runner.RunnerDrain;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * Watches the data deadlines on the service clock. Every fire interval (0.1 s) the due deadlines alone are settled
 * (their bucket's run did what they promise: MET, RECOVERED) or fired (MISSED), in batches until none is left, so a
 * deadline fires within that interval of its time, and a restart's first pass fires everything that fell while the
 * service was down. That pass runs on a Vert.x timer of its own: Quarkus's scheduler looks at its triggers once a
 * second, so an interval below a second there would still fire only once a second. A tick reads nothing while the
 * soonest due time it knows of is still ahead ({@link #nextDue}): an idle service then costs its database nothing
 * between checks. Every check (1 s) every open
 * deadline is settled. The buckets that became expected get their deadlines (SET) on a schedule of their own, a
 * lookahead ahead: many parents given deadlines at once must not hold
 * back the firing of deadlines that exist already. Estimates (AT_RISK) are renewed on their own, slower interval.
 * Replicas share the work through row locks.
 *
 * <p>Meters: {@code batchyard.deadlines} by state (sampled), {@code batchyard.deadline.checker.lag} (now minus the
 * oldest due deadline not yet fired, after each check) and {@code batchyard.deadline.miss.delay} (due time to the
 * commit of its MISSED, on the service clock).
 */
@Startup
@ApplicationScoped
public class DeadlineWatch {

    public static final String STATES = "batchyard.deadlines";
    public static final String LAG = "batchyard.deadline.checker.lag.seconds";
    public static final String MISS_DELAY = "batchyard.deadline.miss.delay";
    /** Parents one materialising transaction takes (a few statements for all); a check goes on while they come back full. */
    static final int DEFINITIONS_PER_CHECK = 250;
    /** Transactions one check runs at most for each step, so that a check ends and the next one has a fresh clock. */
    static final int BATCHES_PER_CHECK = 40;

    private static final Logger LOG = Logger.getLogger(DeadlineWatch.class);

    private final DeadlineService deadlines;
    private final DeadlineConfig config;
    private final ServiceClock clock;
    private final RunnerDrain drain;
    private final Map<DeadlineState, AtomicLong> counts = new EnumMap<>(DeadlineState.class);
    private final AtomicLong lagSeconds;
    private final Timer missDelay;
    private final Vertx vertx;
    /** One firing pass at a time: a tick that comes while the last pass still runs is skipped. */
    private final AtomicBoolean firing = new AtomicBoolean();
    /**
     * The soonest due time of an open deadline as last read, {@link OffsetDateTime#MAX} when none has one, null when
     * not known (a pass then runs). A firing pass sets it from what is left after it; a check, a materialising pass
     * and a definition change only bring it forward, so a deadline created or started meanwhile is never waited past.
     * A deadline another replica creates is seen by the next check at the latest, and that replica fires it anyway.
     */
    private final AtomicReference<OffsetDateTime> nextDue = new AtomicReference<>();
    private volatile long fireTimer = -1;

    public DeadlineWatch(DeadlineService deadlines, DeadlineConfig config, ServiceClock clock, RunnerDrain drain,
                         MeterRegistry meters, Vertx vertx) {
        this.vertx = vertx;
        this.deadlines = deadlines;
        this.config = config;
        this.clock = clock;
        this.drain = drain;
        for (DeadlineState state : DeadlineState.values()) {
            counts.put(state, meters.gauge(STATES, Tags.of("state", state.name()), new AtomicLong()));
        }
        this.lagSeconds = meters.gauge(LAG, new AtomicLong());
        this.missDelay = Timer.builder(MISS_DELAY).description("From a deadline's due time to the commit of its MISSED")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(10))
                .maximumExpectedValue(Duration.ofMinutes(10)).register(meters);
    }

    @Scheduled(every = "${batchyard.deadlines.check-interval:PT1S}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduledCheck() {
        return quietly(() -> settle(clock.now()).call(this::bringNextDueForward), "check");
    }

    /** Starts the firing pass's timer (none while the watch is off: every pass would do nothing). */
    void startFiring(@Observes StartupEvent ignored) {
        if (config.enabled()) {
            fireTimer = vertx.setPeriodic(Math.max(1, config.fireInterval().toMillis()), id -> fireTick());
        }
    }

    void stopFiring(@Observes ShutdownEvent ignored) {
        if (fireTimer >= 0) {
            vertx.cancelTimer(fireTimer);
        }
    }

    /**
     * Starts a firing pass unless one still runs, on a fresh duplicated context flagged safe, as Quarkus's scheduler
     * gives a scheduled method: the pass's transactions need a context of their own.
     */
    private void fireTick() {
        OffsetDateTime next = nextDue.get();
        if (next != null && clock.now().isBefore(next) || !firing.compareAndSet(false, true)) {
            return;
        }
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(ignored -> scheduledFire().subscribe()
                .with(done -> firing.set(false), failure -> firing.set(false)));
    }

    /**
     * Between checks, the due deadlines alone: settled if their bucket's run did what they promise, else fired. Cheap
     * when nothing is due (an index probe), so it runs often and a deadline fires within the fire interval of its time.
     */
    Uni<Void> scheduledFire() {
        return quietly(() -> settleDueAndFire(clock.now()).call(() -> deadlines.nextDue()
                .invoke(due -> nextDue.set(due.orElse(OffsetDateTime.MAX)))), "fire");
    }

    /** Lowers {@link #nextDue} to the soonest due time now stored, if that is sooner. */
    private Uni<Void> bringNextDueForward() {
        return deadlines.nextDue().invoke(due -> due.ifPresent(d -> nextDue.accumulateAndGet(d,
                (known, read) -> known == null || read.isBefore(known) ? read : known))).replaceWithVoid();
    }

    @Scheduled(every = "${batchyard.deadlines.check-interval:PT1S}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduledMaterialise() {
        return quietly(() -> materialise(clock.now(), 0).call(this::bringNextDueForward), "materialise");
    }

    @Scheduled(every = "${batchyard.deadlines.estimate-interval:PT15S}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduledEstimate() {
        return quietly(this::estimateOnce, "estimate");
    }

    @Scheduled(every = "${batchyard.metrics.sample-interval:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sample() {
        return deadlines.countByState()
                .invoke(byState -> counts.forEach((state, count) -> count.set(byState.getOrDefault(state, 0L))))
                .onFailure().invoke(e -> LOG.debugf("deadlines not sampled: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /**
     * One whole check on the clock's now, as the two schedules do it between them: materialise, settle, fire; answers
     * the deadlines it fired.
     */
    public Uni<Integer> checkOnce() {
        OffsetDateTime now = clock.now();
        return materialise(now, 0).chain(() -> settleAndFire(now));
    }

    /** Settles, then fires what is due (settling first: a bucket finished in time is MET, not MISSED). */
    private Uni<Integer> settleAndFire(OffsetDateTime now) {
        return settle(now).chain(() -> fire(now, 0, 0));
    }

    /** Every open deadline whose bucket's run did what it promised; then how far behind firing is. */
    private Uni<Integer> settle(OffsetDateTime now) {
        return deadlines.settle(now, config.batchSize()).map(List::size)
                .call(() -> deadlines.checkerLag(clock.now()).invoke(lag -> lagSeconds.set(lag.toSeconds())));
    }

    /**
     * The due deadlines alone: those settled first, the others fired. Only this schedule fires (one firing pass at a
     * time per replica): two passes taking due rows at once make each re-check the rows the other just moved, which
     * under thousands of due rows costs PostgreSQL seconds of CPU per batch.
     */
    private Uni<Integer> settleDueAndFire(OffsetDateTime now) {
        return deadlines.settleDue(now, config.batchSize()).chain(() -> fire(now, 0, 0));
    }

    /** One renewal of the estimates on the clock's now; answers the deadlines it found at risk. */
    public Uni<Integer> estimateOnce() {
        return deadlines.estimate(clock.now(), config.batchSize()).map(List::size);
    }

    /** Materialises parents in transactions of {@link #DEFINITIONS_PER_CHECK} while they come back full. */
    private Uni<Integer> materialise(OffsetDateTime now, int batches) {
        return deadlines.materialise(now, DEFINITIONS_PER_CHECK).chain(taken -> taken < DEFINITIONS_PER_CHECK
                || batches + 1 >= BATCHES_PER_CHECK ? Uni.createFrom().item(taken) : materialise(now, batches + 1));
    }

    private Uni<Integer> fire(OffsetDateTime now, int fired, int batches) {
        return deadlines.fire(now, config.batchSize()).chain(batch -> {
            OffsetDateTime committed = clock.now();
            batch.forEach(d -> missDelay.record(Duration.between(d.dueAt(), committed)));
            int total = fired + batch.size();
            return batch.size() < config.batchSize() || batches + 1 >= BATCHES_PER_CHECK
                    ? Uni.createFrom().item(total) : fire(now, total, batches + 1);
        });
    }

    private Uni<Void> quietly(java.util.function.Supplier<Uni<Integer>> work, String what) {
        // a replica that is shutting down leaves the deadlines to the others
        if (!config.enabled() || drain.draining()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().deferred(() -> work.get()).onFailure().invoke(e -> LOG.warnf("deadline %s failed: %s", what,
                e.getMessage())).onFailure().recoverWithNull().replaceWithVoid();
    }
}
