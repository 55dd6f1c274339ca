package io.batchyard.lineage.access;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Set;

/**
 * Which processes a caller may read, as a condition of the statements that list lineage: a process belongs to the
 * application the process read model ({@code process_definition}, steps under their parent's) records for it. A
 * process the read model does not know belongs to no application a caller may read.
 */
@ApplicationScoped
public class AccessRepository extends SqlRepository {

    /**
     * The condition "the process in {@code processColumn} is readable", with the parameters of {@link #params}. The
     * applications travel as one {@code bigint[]} parameter (bound as a {@code Long[]}; a list would be expanded into
     * an IN list), so that no application at all is an empty array and not a syntax error.
     */
    public static String readable(String processColumn) {
        return "(CAST(:readAll AS boolean) OR " + processColumn + " IN (SELECT d.process_id FROM process_definition d"
                + " WHERE d.application_id = ANY(CAST(:readApps AS bigint[]))))";
    }

    /** The parameters of {@link #readable} for {@code reader}. */
    public static Params params(Readable reader) {
        return Params.of("readAll", reader.everything()).and("readApps", reader.applications().toArray(Long[]::new));
    }

    /** Those of {@code processIds} that {@code reader} may read; joins the caller's session. */
    public Uni<Set<Long>> readableAmong(Readable reader, Collection<Long> processIds) {
        if (reader.everything() || processIds.isEmpty()) {
            return Uni.createFrom().item(reader.everything() ? Set.copyOf(processIds) : Set.of());
        }
        return values("SELECT p.process_id FROM unnest(CAST(:ids AS bigint[])) AS p(process_id) WHERE "
                        + readable("p.process_id"), Long.class,
                params(reader).and("ids", processIds.toArray(Long[]::new)))
                .map(Set::copyOf);
    }
}
