package io.batchyard.lineage.access;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Set;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * Which processes a caller may read, as a condition of the statements that list lineage: a process belongs to the
 * application the process read model ({@code process_definition}, steps under their parent's) records for it. A
 * process the read model does not know belongs to no application a caller may read.
 */
@ApplicationScoped
public class AccessRepository {

    /**
     * The condition "the process in {@code processColumn} is readable", with the parameters {@link #bind} sets. The
     * applications travel as one text, so that no application at all is an empty list and not a syntax error.
     */
    public static String readable(String processColumn) {
        return "(CAST(:readAll AS boolean) OR " + processColumn + " IN (SELECT d.process_id FROM process_definition d"
                + " WHERE d.application_id = ANY(CAST(string_to_array(CAST(:readApps AS text), ',') AS bigint[]))))";
    }

    /** Binds the parameters of {@link #readable} for {@code reader}. */
    public static <R> Mutiny.SelectionQuery<R> bind(Mutiny.SelectionQuery<R> query, Readable reader) {
        return query.setParameter("readAll", reader.everything()).setParameter("readApps", reader.applicationList());
    }

    /** Those of {@code processIds} that {@code reader} may read; joins the caller's session. */
    public Uni<Set<Long>> readableAmong(Readable reader, Collection<Long> processIds) {
        if (reader.everything() || processIds.isEmpty()) {
            return Uni.createFrom().item(reader.everything() ? Set.copyOf(processIds) : Set.of());
        }
        return Panache.getSession().chain(s -> bind(s.createNativeQuery("SELECT p.process_id FROM unnest("
                        + "CAST(string_to_array(CAST(:ids AS text), ',') AS bigint[])) AS p(process_id) WHERE "
                        + readable("p.process_id"), Long.class), reader)
                .setParameter("ids", String.join(",", processIds.stream().map(String::valueOf).toList()))
                .getResultList())
                .map(Set::copyOf);
    }
}
