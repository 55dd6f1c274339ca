package io.batchyard.execution.runner;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/** run_output: what each command of a run printed, tied to the run's instance exec id. */
@ApplicationScoped
public class RunOutputRepository extends SqlRepository {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A line waiting to be written. */
    record Pending(String stream, int lineNo, String line, OffsetDateTime loggedAt) {
    }

    /** Lines of run {@code :ie}, and with {@code :steps} those of its steps' runs too. */
    private static final String OF_RUN = """
            (instance_exec_id = :ie OR (:steps AND instance_exec_id IN
                (SELECT instance_exec_id FROM instance_exec WHERE parent_instance_exec_id = :ie)))""";

    public Uni<List<RunOutputLine>> lines(long instanceExecId, boolean withSteps, int limit, int offset) {
        return list("SELECT log_id, instance_exec_id, process_id, stream, line_no, line, logged_at FROM run_output"
                        + " WHERE " + OF_RUN + " ORDER BY log_id" + Paging.CLAUSE,
                Params.of("ie", instanceExecId).and("steps", withSteps).and(new Paging(limit, offset).params()),
                RunOutputRepository::line);
    }

    public Uni<Long> count(long instanceExecId, boolean withSteps) {
        return single("SELECT count(*) FROM run_output WHERE " + OF_RUN, Long.class,
                Params.of("ie", instanceExecId).and("steps", withSteps));
    }

    /** Writes a batch of lines in one statement: the batch travels as one JSON array. */
    Uni<Void> insert(long instanceExecId, long processId, List<Pending> lines) {
        if (lines.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                INSERT INTO run_output (instance_exec_id, process_id, stream, line_no, line, logged_at)
                SELECT :ie, :p, l.stream, l.line_no, l.line, l.logged_at
                FROM jsonb_to_recordset(CAST(CAST(:lines AS text) AS jsonb)) AS l(stream text, line_no int, line text, logged_at timestamptz)
                ORDER BY l.line_no""",
                Params.of("ie", instanceExecId).and("p", processId).and("lines", json(lines))).replaceWithVoid();
    }

    private static RunOutputLine line(Row r) {
        return new RunOutputLine(r.getLong("log_id"), r.getLong("instance_exec_id"), r.getLong("process_id"),
                r.getString("stream"), r.getInt("line_no"), r.getString("line"), r.getTime("logged_at"));
    }

    private static String json(List<Pending> lines) {
        try {
            return JSON.writeValueAsString(lines.stream().map(l -> Map.of("stream", l.stream(), "line_no", l.lineNo(),
                    "line", l.line(), "logged_at", l.loggedAt().toString())).toList());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
