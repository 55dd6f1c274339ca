package io.batchyard.execution.trigger;

import io.batchyard.execution.runner.RunnerConfig;
import io.batchyard.execution.runner.RunnerDrain;
import io.batchyard.persistence.Blocking;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The timer of all-with-timeout buckets: every {@code batchyard.trigger.sweep} (15 s) it fires, on the service
 * clock, the buckets whose timeout passed ({@link TriggerInputService#sweep}: several replicas may sweep at once, each
 * bucket fires once), starts their runs, calls the launcher hook again for Oozie and Airflow runs still pending
 * {@code batchyard.trigger.relaunch-after} (PT5M) after their decision or their last call, and counts the pending
 * trigger runs for the gauge. Off with the runner's
 * scheduler ({@code batchyard.runner.scheduler-enabled=false}); tests call {@link #sweepOnce()} after moving the clock.
 */
@ApplicationScoped
public class TriggerSweep {

    private static final Logger LOG = Logger.getLogger(TriggerSweep.class);

    private final TriggerInputService inputs;
    private final TriggerService triggers;
    private final TriggerStarts starts;
    private final TriggerMeters meters;
    private final RunnerConfig config;
    private final RunnerDrain drain;

    public TriggerSweep(TriggerInputService inputs, TriggerService triggers, TriggerStarts starts,
                        TriggerMeters meters, RunnerConfig config, RunnerDrain drain) {
        this.inputs = inputs;
        this.triggers = triggers;
        this.starts = starts;
        this.meters = meters;
        this.config = config;
        this.drain = drain;
    }

    @Scheduled(every = "${batchyard.trigger.sweep:15s}", delayed = "${batchyard.trigger.sweep:15s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (config.schedulerEnabled() && !drain.draining()) {
            try {
                sweepOnce();
            } catch (RuntimeException e) {
                LOG.warnf(e, "trigger sweep failed; the next one tries again");
            }
        }
    }

    /**
     * Fires the timed-out buckets and starts their runs, and calls the launcher hook again for runs of Oozie and
     * Airflow parents left pending; answers the buckets fired.
     */
    public List<TriggerDecision> sweepOnce() {
        TriggerInputService.Swept swept = Blocking.await(inputs::sweep);
        meters.timedOut(swept.timedOut().size());
        List<TriggerDecision> all = new ArrayList<>(swept.timedOut());
        all.addAll(swept.relaunched());
        for (TriggerDecision decision : all) {
            LOG.infof("trigger of parent %d: %s", decision.parentId(), decision.why());
            Blocking.await(() -> starts.after(decision));
        }
        meters.pending(Blocking.await(triggers::countPending));
        return swept.timedOut();
    }
}
