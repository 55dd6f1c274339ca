package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;

import io.batchyard.queue.compaction.merge.MergeSignal;
import io.batchyard.queue.compaction.merge.MergeWorker;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.batchyard.queue.clock.ServiceClock;
import java.net.InetAddress;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The in-service merge workers and the periodic catalog step. Each worker loops: run one job, and sleep only when
 * there was none (for {@code idle-poll}, or until a merge is made due now here: {@link MergeSignal}), so a backlog
 * (carry-over) drains without pauses. Several instances of the service may run workers
 * at once; the database claim keeps them apart. Workers and the catalog loop block (file I/O, sleeps) on threads of
 * their own and wait there for the reactive services they call.
 */
@ApplicationScoped
public class WorkerPool {

    private static final Logger LOG = Logger.getLogger(WorkerPool.class);

    private final Compaction compaction;
    private final CompactionConfig config;
    private final List<Thread> threads = new ArrayList<>();
    private final List<MergeWorker> workers = new ArrayList<>();
    private volatile boolean running;

    private final ServiceClock clock;
    private final MergeSignal signal;

    public WorkerPool(Compaction compaction, CompactionConfig config, ServiceClock clock, MergeSignal signal) {
        this.clock = clock;
        this.signal = signal;
        this.compaction = compaction;
        this.config = config;
    }

    void start(@Observes StartupEvent ignored) {
        if (!config.enabled()) {
            LOG.info("compaction workers disabled (batchyard.compaction.enabled=false)");
            return;
        }
        running = true;
        String instance = instanceName();
        for (int i = 0; i < config.workers(); i++) {
            MergeWorker w = compaction.worker(instance + "-" + i);
            workers.add(w);
            threads.add(daemon("merge-worker-" + i, () -> work(w)));
        }
        threads.add(daemon("compaction-catalog", this::catalogLoop));
        threads.forEach(Thread::start);
        LOG.infof("compaction: %d merge worker(s) on %s", config.workers(), compaction.stores);
    }

    void stop(@Observes ShutdownEvent ignored) {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        workers.forEach(MergeWorker::close);
    }

    private void work(MergeWorker w) {
        while (running) {
            try {
                long seen = signal.generation();
                if (w.runOnce() == MergeWorker.Outcome.IDLE) {
                    signal.await(seen, config.idlePoll());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warnf("merge worker %s: %s", w.id(), e.getMessage());
                if (!pause()) {
                    return;
                }
            }
        }
    }

    private void catalogLoop() {
        while (running) {
            try {
                await(compaction.catalog::run);
                await(() -> compaction.gc.collectUpTo(clock.today(ZoneOffset.UTC).minusDays(config.gcAfterDays())));
            } catch (RuntimeException e) {
                LOG.warnf("catalog step failed, the next run repeats it: %s", e.getMessage());
            }
            try {
                Thread.sleep(config.catalogInterval().toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private boolean pause() {
        try {
            Thread.sleep(config.idlePoll().toMillis());
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    private static String instanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "queue";
        }
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
