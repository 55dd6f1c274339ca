package io.batchyard.queue.compaction;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** SQL over {@code unknown_object}: announced objects that could not be routed, kept for an operator. */
@ApplicationScoped
public class UnknownObjectRepository extends SqlRepository {

    public Uni<Integer> quarantine(String sourceKey, String schema, String table, String reason) {
        return update("""
                        INSERT INTO unknown_object (source_key, schema_name, table_name, reason) VALUES (:k, :s, :t, :r)
                        ON CONFLICT DO NOTHING""",
                Params.of("k", sourceKey).and("s", schema).and("t", table).and("r", reason));
    }
}
