package io.batchyard.execution.backfill;

import io.batchyard.api.ApiException;
import io.batchyard.clients.lineage.LineageReach;
import io.batchyard.execution.ExecutionError;
import io.batchyard.persistence.Blocking;
import io.batchyard.schemas.lineage.ColumnReach;
import io.batchyard.schemas.lineage.Reach;
import io.batchyard.schemas.lineage.ReachRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * lineage-service's reach question, asked from a worker thread: which jobs a change of each column reaches. A column
 * no lineage names is refused (466): pruning by it would prune everything downstream. No answer is a 503 (467),
 * never a 500. The call's deadline, retries and breaker are {@link LineageReach}'s.
 */
@ApplicationScoped
public class LineageClient {

    private final LineageReach lineage;

    public LineageClient(LineageReach lineage) {
        this.lineage = lineage;
    }

    /** For each column, the jobs (parents) it reaches. */
    public Uni<Map<String, Set<Long>>> reach(List<String> columns) {
        return Blocking.blocking(() -> {
            Reach answer;
            try {
                answer = lineage.reach(new ReachRequest(columns));
            } catch (ApiException refused) {
                throw refused.status() >= 500 ? unavailable(refused.getMessage()) : refused;
            } catch (RuntimeException e) {
                throw unavailable(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
            if (answer == null || answer.columns() == null) {
                throw unavailable("unreadable answer");
            }
            Map<String, Set<Long>> reached = new HashMap<>();
            for (ColumnReach c : answer.columns()) {
                if (!c.known()) {
                    throw ExecutionError.UNKNOWN_LINEAGE_COLUMN.exception("no query read or wrote column "
                            + c.column() + ", so no job downstream could be left out by it; name a column the column"
                            + " lineage knows (GET /lineage/columns of lineage-service), or the root without columns");
                }
                reached.put(c.column(), new HashSet<>(c.jobs() == null ? List.of() : c.jobs()));
            }
            return reached;
        });
    }

    private static ApiException unavailable(String why) {
        return ExecutionError.LINEAGE_UNAVAILABLE.exception("lineage-service did not say which jobs the roots'"
                + " columns reach: " + why);
    }
}
