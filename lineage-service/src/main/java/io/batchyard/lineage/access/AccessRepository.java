package io.batchyard.lineage.access;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Set;

/** Which of some processes a caller may read, by the condition of {@link Visibility}. */
@ApplicationScoped
public class AccessRepository extends SqlRepository {

    /** Those of {@code processIds} that {@code reader} may read; joins the caller's session. */
    public Uni<Set<Long>> readableAmong(Readable reader, Collection<Long> processIds) {
        if (reader.everything() || processIds.isEmpty()) {
            return Uni.createFrom().item(reader.everything() ? Set.copyOf(processIds) : Set.of());
        }
        return values("SELECT p.process_id FROM unnest(CAST(:ids AS bigint[])) AS p(process_id) WHERE "
                        + Visibility.readable("p.process_id"), Long.class,
                Visibility.params(reader).and("ids", processIds.toArray(Long[]::new)))
                .map(Set::copyOf);
    }
}
