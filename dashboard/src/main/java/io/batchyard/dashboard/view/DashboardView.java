package io.batchyard.dashboard.view;

import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.events.EventHeader;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * What the page shows, folded from the lifecycle and queue events in the order they arrive. Bounded: at most
 * {@link #MAX_RUNNING} runs in progress, {@link #MAX_FINISHED} finished runs, {@link #MAX_FLOW} feed lines, and
 * {@link #MAX_QUEUED} queued batches per consuming process are kept; the oldest go first. Everything here can be
 * rebuilt by reading the topics again, so nothing is lost when the dashboard restarts.
 *
 * <p>A viewer is shown only the rows of processes whose application they may read ({@link #snapshot(Caller)}), by the
 * application permissions the registry announces on its topic and the one rule of {@link ApplicationGuard}; a step's
 * rows go by its parent's application. Rows of a process whose application (or whose application's permissions) the
 * dashboard has not learnt are shown to administrators only.
 */
public final class DashboardView {

    public static final int MAX_RUNNING = 500;
    public static final int MAX_FINISHED = 50;
    public static final int MAX_FLOW = 200;
    public static final int MAX_QUEUED = 1_000;
    /** A queue with this many batches and none ever consumed stands out as only growing. */
    public static final int GROWING_AFTER = 3;
    private static final int MAX_HALTS_REMEMBERED = 5_000;

    public record Step(long subProcessId, long subInstanceExecId, String state, Instant startedAt, Instant endedAt) {
    }

    /** A run; a failed one carries the code and text its TermJob gave (both null when it gave none). */
    public record Run(long processId, String processName, Long applicationId, long instanceExecId, long targetBatchId,
                      String state, Instant startedAt, Instant endedAt, Long durationMs, String actor, List<Step> steps,
                      Integer errorCode, String errorText) {
    }

    /** A consuming step's queue; its parent (whose trigger the triggers panel shows) is null while unannounced. */
    public record Queue(long consumerProcessId, String processName, Long applicationId, int queued,
                        Instant oldestEnqueuedAt, Long lastFanOutMs, long enqueuedTotal, long consumedTotal,
                        boolean onlyGrowing, Long parentProcessId) {
    }

    /** One line of the live feed; the application is null while the registry's event for the process is unread. */
    public record FlowLine(Instant at, String type, long processId, String processName, Long applicationId,
                           String text) {
    }

    public record Snapshot(long version, List<Run> running, List<Run> finished, List<Queue> queues, List<FlowLine> flow,
                           List<Directory.Application> applications, List<Directory.Parent> parents) {
    }

    /** Parents listed in a snapshot (the choices of the "why" and lineage panels): the newest ones. */
    public static final int MAX_PARENTS_SHOWN = 500;

    private static final class RunState {
        final long processId;
        final long instanceExecId;
        final long targetBatchId;
        final Instant startedAt;
        final String actor;
        final Map<Long, Step> steps = new LinkedHashMap<>();
        String state = "running";
        Instant endedAt;
        Integer errorCode;
        String errorText;

        RunState(long processId, long instanceExecId, long targetBatchId, Instant startedAt, String actor) {
            this.processId = processId;
            this.instanceExecId = instanceExecId;
            this.targetBatchId = targetBatchId;
            this.startedAt = startedAt;
            this.actor = actor;
        }

        Run toRun(Directory names) {
            Long duration = endedAt == null ? null : Duration.between(startedAt, endedAt).toMillis();
            return new Run(processId, names.name(processId), names.applicationOf(processId), instanceExecId,
                    targetBatchId, state, startedAt, endedAt, duration, actor, List.copyOf(steps.values()), errorCode,
                    errorText);
        }
    }

    private static final class QueueState {
        final Map<Long, Instant> batches = new LinkedHashMap<>();
        Long lastFanOutMs;
        long enqueued;
        long consumed;
    }

    private final Directory names = new Directory();
    private final Map<Long, RunState> running = new LinkedHashMap<>();
    /** Finished runs as they ended; named when a snapshot is taken, so a name learnt later still shows. */
    private final Deque<RunState> finished = new ArrayDeque<>();
    private final Map<Long, QueueState> queues = new LinkedHashMap<>();
    private final Deque<FlowLine> flow = new ArrayDeque<>();
    /** When each recent batch was halted (its JobHalted), for the fan-out latency of the BatchEnqueued that follow. */
    private final Map<Long, Instant> haltedAt = new LinkedHashMap<>();
    /** Which parent each step belongs to, learnt from StepStarted: an archive names the parent, a queue the step. */
    private final Map<Long, Long> parentOfStep = new LinkedHashMap<>();
    private long version;
    /**
     * The last snapshot taken. Every open page's stream asks for one whenever the version moved; they all get the
     * same object until the next event, instead of each folding the whole view (and its up to 10,000 names) again.
     */
    private Snapshot taken;
    /** The applications' permissions when {@link #taken} was taken: each viewer's snapshot is cut from both. */
    private Map<Long, ApplicationAccess> takenAccess = Map.of();

    /** Folds one event in and answers true; events of other types change nothing and answer false. */
    public synchronized boolean apply(SpecificRecord event) {
        if (names.apply(event)) {
            // names, applications and tables: no line in the feed, but the page redraws with them
        } else if (event instanceof JobStarted e) {
            RunState run = new RunState(e.getProcessId(), e.getInstanceExecId(), e.getTargetBatchId(),
                    at(e.getHeader()), e.getHeader().getActor());
            running.put(e.getInstanceExecId(), run);
            trim(running, MAX_RUNNING);
            line(e.getHeader(), "JobStarted", e.getProcessId(), "run " + e.getInstanceExecId() + " of batch "
                    + e.getTargetBatchId() + (e.getRetry() ? " (retry)" : ""));
        } else if (event instanceof StepStarted e) {
            parentOfStep.put(e.getSubProcessId(), e.getParentProcessId());
            step(e.getParentInstanceExecId(), new Step(e.getSubProcessId(), e.getSubInstanceExecId(), "running",
                    at(e.getHeader()), null));
            line(e.getHeader(), "StepStarted", e.getSubProcessId(), "step of run " + e.getParentInstanceExecId());
        } else if (event instanceof StepHalted e) {
            endStep(e.getParentInstanceExecId(), e.getSubInstanceExecId(), "halted", at(e.getHeader()));
            line(e.getHeader(), "StepHalted", e.getSubProcessId(), "step of run " + e.getParentInstanceExecId());
        } else if (event instanceof StepFailed e) {
            endStep(e.getParentInstanceExecId(), e.getSubInstanceExecId(), "failed", at(e.getHeader()));
            line(e.getHeader(), "StepFailed", e.getSubProcessId(), "step of run " + e.getParentInstanceExecId());
        } else if (event instanceof JobHalted e) {
            finish(e.getInstanceExecId(), "halted", at(e.getHeader()), null, null);
            haltedAt.put(e.getTargetBatchId(), at(e.getHeader()));
            trim(haltedAt, MAX_HALTS_REMEMBERED);
            line(e.getHeader(), "JobHalted", e.getProcessId(), "run " + e.getInstanceExecId() + " halted, batch "
                    + e.getTargetBatchId() + (e.getBatchMarking() == null ? "" : " marked " + e.getBatchMarking()));
        } else if (event instanceof JobFailed e) {
            finish(e.getInstanceExecId(), "failed", at(e.getHeader()), e.getErrorCode(), e.getErrorText());
            line(e.getHeader(), "JobFailed", e.getProcessId(), "run " + e.getInstanceExecId() + " failed"
                    + (e.getErrorCode() == null ? "" : ", code " + e.getErrorCode())
                    + (e.getErrorText() == null ? "" : ": " + e.getErrorText()));
        } else if (event instanceof BatchEnqueued e) {
            QueueState q = queues.computeIfAbsent(e.getConsumerProcessId(), id -> new QueueState());
            q.batches.put(e.getSourceBatchId(), at(e.getHeader()));
            trim(q.batches, MAX_QUEUED);
            q.enqueued++;
            Instant halted = haltedAt.get(e.getSourceBatchId());
            if (halted != null) {
                q.lastFanOutMs = Math.max(0, Duration.between(halted, at(e.getHeader())).toMillis());
            }
            line(e.getHeader(), "BatchEnqueued", e.getConsumerProcessId(), "batch " + e.getSourceBatchId()
                    + " from process " + e.getSourceProcessId() + " queued");
        } else if (event instanceof BatchesArchived e) {
            for (Map.Entry<Long, QueueState> q : queues.entrySet()) {
                Long parent = parentOfStep.get(q.getKey());
                if (parent != null && parent == e.getParentProcessId()) {
                    for (Long batch : e.getSourceBatchIds()) {
                        if (q.getValue().batches.remove(batch) != null) {
                            q.getValue().consumed++;
                        }
                    }
                }
            }
            line(e.getHeader(), "BatchesArchived", e.getParentProcessId(), "consumed " + e.getSourceBatchIds());
        } else {
            return false;
        }
        version++;
        return true;
    }

    /** Changes so far: a page that saw this version has nothing new to draw. */
    public synchronized long version() {
        return version;
    }

    /** Everything the view holds, whoever may read it: what an administrator sees. */
    public synchronized Snapshot snapshot() {
        if (taken == null || taken.version() != version) {
            taken = take();
            takenAccess = names.access();
        }
        return taken;
    }

    /**
     * What {@code viewer} may see of the view: the runs, queues, finished runs and flow lines of processes whose
     * application they may read, and only those applications and parents to choose from. Cut from the one snapshot
     * every page shares, outside the lock.
     */
    public Snapshot snapshot(Caller viewer) {
        Snapshot all;
        Map<Long, ApplicationAccess> access;
        synchronized (this) {
            all = snapshot();
            access = takenAccess;
        }
        if (viewer.admin()) {
            return all;
        }
        Predicate<Long> readable = application -> ApplicationGuard.canRead(viewer,
                Optional.ofNullable(application).map(access::get));
        return new Snapshot(all.version(), only(all.running(), Run::applicationId, readable),
                only(all.finished(), Run::applicationId, readable),
                only(all.queues(), Queue::applicationId, readable),
                only(all.flow(), FlowLine::applicationId, readable),
                only(all.applications(), Directory.Application::applicationId, readable),
                only(all.parents(), Directory.Parent::applicationId, readable));
    }

    private static <T> List<T> only(List<T> rows, Function<T, Long> application, Predicate<Long> readable) {
        return rows.stream().filter(row -> readable.test(application.apply(row))).toList();
    }

    private Snapshot take() {
        List<Run> now = running.values().stream().map(r -> r.toRun(names))
                .sorted(Comparator.comparing(Run::startedAt).reversed()).toList();
        List<Queue> queueList = new ArrayList<>();
        queues.forEach((consumer, q) -> {
            Instant oldest = q.batches.values().stream().min(Comparator.naturalOrder()).orElse(null);
            queueList.add(new Queue(consumer, names.name(consumer), names.applicationOf(consumer), q.batches.size(),
                    oldest, q.lastFanOutMs, q.enqueued, q.consumed, q.consumed == 0 && q.batches.size() >= GROWING_AFTER,
                    names.parentOf(consumer)));
        });
        List<FlowLine> lines = flow.stream().map(this::named).toList();
        return new Snapshot(version, now, finished.stream().map(r -> r.toRun(names)).toList(), queueList, lines,
                names.applications(), names.parents(MAX_PARENTS_SHOWN));
    }

    /**
     * A flow line with the process's name and application as now known: a line kept from before a process was
     * announced gets them, and one whose process moved goes by its application now; once the registry forgets the
     * process (deleted), the line keeps what it had.
     */
    private FlowLine named(FlowLine l) {
        String name = names.name(l.processId());
        Long application = names.applicationOf(l.processId());
        if ((name == null && application == null)
                || (Objects.equals(name, l.processName()) && Objects.equals(application, l.applicationId()))) {
            return l;
        }
        return new FlowLine(l.at(), l.type(), l.processId(), name != null ? name : l.processName(),
                application != null ? application : l.applicationId(), l.text());
    }

    private void step(long parentInstanceExecId, Step step) {
        RunState run = running.get(parentInstanceExecId);
        if (run != null) {
            run.steps.put(step.subInstanceExecId(), step);
        }
    }

    private void endStep(long parentInstanceExecId, long subInstanceExecId, String state, Instant at) {
        RunState run = running.get(parentInstanceExecId);
        Step started = run == null ? null : run.steps.get(subInstanceExecId);
        if (started != null) {
            run.steps.put(subInstanceExecId, new Step(started.subProcessId(), subInstanceExecId, state,
                    started.startedAt(), at));
        }
    }

    private void finish(long instanceExecId, String state, Instant at, Integer errorCode, String errorText) {
        RunState run = running.remove(instanceExecId);
        if (run == null) {
            return;
        }
        run.state = state;
        run.endedAt = at;
        run.errorCode = errorCode;
        run.errorText = errorText;
        finished.addFirst(run);
        while (finished.size() > MAX_FINISHED) {
            finished.removeLast();
        }
    }

    private void line(EventHeader header, String type, long processId, String text) {
        flow.addFirst(new FlowLine(at(header), type, processId, names.name(processId), names.applicationOf(processId),
                text));
        while (flow.size() > MAX_FLOW) {
            flow.removeLast();
        }
    }

    private static Instant at(EventHeader header) {
        return header.getOccurredAt();
    }

    static <K, V> void trim(Map<K, V> map, int max) {
        var it = map.keySet().iterator();
        while (map.size() > max && it.hasNext()) {
            it.next();
            it.remove();
        }
    }
}
