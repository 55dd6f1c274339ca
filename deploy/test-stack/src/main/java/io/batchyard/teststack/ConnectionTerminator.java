package io.batchyard.teststack;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Terminates every connection to one database again and again ({@code pg_terminate_backend} every {@code interval})
 * until closed: the database blips a service must survive without losing or repeating work.
 */
public final class ConnectionTerminator implements AutoCloseable {

    private final Thread thread;
    private final AtomicInteger rounds = new AtomicInteger();
    private final AtomicInteger terminated = new AtomicInteger();
    private final AtomicReference<SQLException> failure = new AtomicReference<>();
    private volatile boolean running = true;

    private ConnectionTerminator(Infrastructure infra, Infrastructure.Database db, Duration interval) {
        thread = new Thread(() -> {
            while (running) {
                try {
                    terminated.addAndGet(infra.terminateConnections(db));
                    rounds.incrementAndGet();
                } catch (SQLException e) {
                    failure.set(e);
                }
                try {
                    Thread.sleep(interval.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "terminate-" + db.name());
        thread.setDaemon(true);
    }

    public static ConnectionTerminator every(Duration interval, Infrastructure infra, Infrastructure.Database db) {
        ConnectionTerminator terminator = new ConnectionTerminator(infra, db, interval);
        terminator.thread.start();
        return terminator;
    }

    /** Connections terminated so far. */
    public int terminated() {
        return terminated.get();
    }

    /** Rounds run so far (each terminates whatever was connected at that moment). */
    public int rounds() {
        return rounds.get();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (rounds.get() == 0 && failure.get() != null) {
            throw new IllegalStateException("could not terminate connections", failure.get());
        }
    }
}
