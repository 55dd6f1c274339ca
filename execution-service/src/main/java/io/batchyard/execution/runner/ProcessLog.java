package io.batchyard.execution.runner;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/** process_log: what each command of a run printed, tied to the run's instance exec id. */
@ApplicationScoped
public class ProcessLog {

    /** One logged line. */
    public record Line(long logId, long instanceExecId, long processId, String stream, int lineNo, String line,
                       OffsetDateTime loggedAt) {
    }

    /** Lines of run {@code :ie}, and with {@code :steps} those of its steps' runs too. */
    private static final String OF_RUN = """
            (instance_exec_id = :ie OR (:steps AND instance_exec_id IN
                (SELECT instance_exec_id FROM instance_exec WHERE parent_instance_exec_id = :ie)))""";

    @Inject
    Jdbi jdbi;

    /** A per-run writer that batches lines, so a chatty command costs one insert per batch, not per line. */
    public Writer writer(long instanceExecId, long processId) {
        return new Writer(instanceExecId, processId);
    }

    public List<Line> lines(Handle h, long instanceExecId, boolean withSteps, int limit, int offset) {
        return h.createQuery("SELECT * FROM process_log WHERE " + OF_RUN + " ORDER BY log_id LIMIT :limit OFFSET :offset")
                .bind("ie", instanceExecId).bind("steps", withSteps).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> new Line(rs.getLong("log_id"), rs.getLong("instance_exec_id"), rs.getLong("process_id"),
                        rs.getString("stream"), rs.getInt("line_no"), rs.getString("line"),
                        rs.getObject("logged_at", OffsetDateTime.class)))
                .list();
    }

    public long count(Handle h, long instanceExecId, boolean withSteps) {
        return h.createQuery("SELECT count(*) FROM process_log WHERE " + OF_RUN)
                .bind("ie", instanceExecId).bind("steps", withSteps).mapTo(Long.class).one();
    }

    /** Collects lines and writes them in batches; {@link #flush()} before the run's end is recorded. */
    public final class Writer implements OsCommand.LineSink {
        private static final int BATCH = 200;
        /** A runaway command must not fill the database: beyond this, lines are counted, not stored. */
        private static final int MAX_LINES = 100_000;
        private final long instanceExecId;
        private final long processId;
        private final List<Object[]> pending = new ArrayList<>();
        private int lineNo;
        private int dropped;

        private Writer(long instanceExecId, long processId) {
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
            pending.add(new Object[] {stream, ++lineNo, line.replace('\0', '\uFFFD'), OffsetDateTime.now()});
            if (pending.size() >= BATCH) {
                flush();
            }
        }

        public synchronized void flush() {
            if (dropped > 0) {
                pending.add(new Object[] {"runner", ++lineNo, dropped + " more line(s) not stored (limit " + MAX_LINES + ")",
                        OffsetDateTime.now()});
                dropped = 0;
            }
            if (pending.isEmpty()) {
                return;
            }
            List<Object[]> rows = new ArrayList<>(pending);
            pending.clear();
            jdbi.useHandle(h -> {
                PreparedBatch batch = h.prepareBatch("""
                        INSERT INTO process_log (instance_exec_id, process_id, stream, line_no, line, logged_at)
                        VALUES (:ie, :p, :stream, :no, :line, :at)""");
                for (Object[] r : rows) {
                    batch.bind("ie", instanceExecId).bind("p", processId).bind("stream", r[0]).bind("no", r[1])
                            .bind("line", r[2]).bind("at", (OffsetDateTime) r[3]).add();
                }
                batch.execute();
            });
        }
    }
}
