package io.batchyard.execution.runner;

import io.batchyard.persistence.Blocking;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects what a run's commands print and writes it in batches; {@link #flush()} before the run's end is recorded.
 * Lines arrive on the command's reader threads, so a flush waits for its transaction there, never on an event loop.
 */
public final class RunOutputWriter implements OsCommand.LineSink {

    private static final int BATCH = 200;
    /** A runaway command must not fill the database: beyond this, lines are counted, not stored. */
    private static final int MAX_LINES = 100_000;
    private final RunOutputService service;
    private final long instanceExecId;
    private final long processId;
    private final List<RunOutputRepository.Pending> pending = new ArrayList<>();
    private int lineNo;
    private int dropped;

    RunOutputWriter(RunOutputService service, long instanceExecId, long processId) {
        this.service = service;
        this.instanceExecId = instanceExecId;
        this.processId = processId;
    }

    @Override
    public synchronized void line(String stream, String line) {
        if (lineNo >= MAX_LINES) {
            dropped++;
            return;
        }
        // PostgreSQL text cannot hold NUL; binary output shows as replacement characters instead of failing.
        pending.add(new RunOutputRepository.Pending(stream, ++lineNo, line.replace('\0', '\uFFFD'), OffsetDateTime.now()));
        if (pending.size() >= BATCH) {
            flush();
        }
    }

    public synchronized void flush() {
        if (dropped > 0) {
            pending.add(new RunOutputRepository.Pending("runner", ++lineNo,
                    dropped + " more line(s) not stored (limit " + MAX_LINES + ")", OffsetDateTime.now()));
            dropped = 0;
        }
        if (pending.isEmpty()) {
            return;
        }
        List<RunOutputRepository.Pending> rows = List.copyOf(pending);
        pending.clear();
        Blocking.await(() -> service.append(instanceExecId, processId, rows));
    }
}
