package io.batchyard.execution.runner;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.persistence.Columns;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * runner_lease: the row that makes a parent's run exclusive across runners; a runner keeps it alive while it runs.
 * The buckets array travels as JSON text both ways: one shape whatever the bucket contains (and a {@code text[]}
 * column cannot be read from a native query's row).
 */
@ApplicationScoped
public class RunnerLeaseRepository extends SqlRepository {

    private final ServiceClock clock;

    public RunnerLeaseRepository(ServiceClock clock) {
        this.clock = clock;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A lease held on a parent. */
    public record Lease(long processId, String owner, List<String> buckets, Long instanceExecId) {
    }

    /**
     * Removes the parent's lease if it expired (its runner died) and returns it, so the caller can clean up after it
     * in the same transaction. Of two runners reaping at once, one gets the row; the other finds none.
     */
    public Uni<Optional<Lease>> reapExpired(long processId) {
        return first("""
                DELETE FROM runner_lease WHERE process_id = :p AND lease_until < CAST(:now AS timestamptz)
                RETURNING process_id, owner, CAST(array_to_json(buckets) AS text) AS buckets, instance_exec_id""",
                Params.of("p", processId).and("now", clock.now()), RunnerLeaseRepository::lease);
    }

    /** Claims the parent; false when another runner holds it (the primary key decides between racing runners). */
    public Uni<Boolean> claim(long processId, String owner, List<String> buckets, Duration lease) {
        return update("""
                INSERT INTO runner_lease (process_id, owner, buckets, lease_until)
                VALUES (:p, :o, ARRAY(SELECT jsonb_array_elements_text(CAST(CAST(:b AS text) AS jsonb))),
                        CAST(:now AS timestamptz) + CAST(:lease AS bigint) * INTERVAL '1 millisecond')
                ON CONFLICT (process_id) DO NOTHING""",
                Params.of("p", processId).and("o", owner).and("b", json(buckets)).and("lease", lease.toMillis())
                        .and("now", clock.now()))
                .map(inserted -> inserted == 1);
    }

    /** Extends the lease; false when it was lost (taken over after expiry). */
    public Uni<Boolean> refresh(long processId, String owner, Duration lease) {
        return update("""
                UPDATE runner_lease SET lease_until = CAST(:now AS timestamptz) + CAST(:lease AS bigint) * INTERVAL '1 millisecond' WHERE process_id = :p AND owner = :o""",
                Params.of("p", processId).and("o", owner).and("lease", lease.toMillis()).and("now", clock.now()))
                .map(updated -> updated == 1);
    }

    /** Ends the lease now without deleting it: the next runner to look takes it over as a dead runner's. */
    public Uni<Void> expire(long processId, String owner) {
        return update("UPDATE runner_lease SET lease_until = CAST(:now AS timestamptz) - INTERVAL '1 millisecond' WHERE process_id = :p AND owner = :o",
                Params.of("p", processId).and("o", owner).and("now", clock.now())).replaceWithVoid();
    }

    public Uni<Void> release(long processId, String owner) {
        return update("DELETE FROM runner_lease WHERE process_id = :p AND owner = :o",
                Params.of("p", processId).and("o", owner)).replaceWithVoid();
    }

    /** Which of these processes a runner holds a live lease of, in one statement. */
    public Uni<Set<Long>> leasedAmong(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return values("""
                        SELECT process_id FROM runner_lease
                        WHERE process_id = ANY(:ids) AND lease_until >= CAST(:now AS timestamptz)""", Long.class,
                Params.of("ids", processIds.toArray(Long[]::new)).and("now", clock.now())).map(Set::copyOf);
    }

    public Uni<Optional<Lease>> find(long processId) {
        return first("""
                SELECT process_id, owner, CAST(array_to_json(buckets) AS text) AS buckets, instance_exec_id
                FROM runner_lease WHERE process_id = :p AND lease_until >= CAST(:now AS timestamptz)""",
                Params.of("p", processId).and("now", clock.now()), RunnerLeaseRepository::lease);
    }

    private static Lease lease(Row r) {
        return new Lease(r.getLong("process_id"), r.getString("owner"), Columns.strings(r.get("buckets")),
                r.getLongOrNull("instance_exec_id"));
    }

    private static String json(List<String> buckets) {
        try {
            return JSON.writeValueAsString(buckets);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
