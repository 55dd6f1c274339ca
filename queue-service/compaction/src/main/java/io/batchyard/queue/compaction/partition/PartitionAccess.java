package io.batchyard.queue.compaction.partition;

import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_PARTITION;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.queue.access.AccessChecks;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

/**
 * A partition as a caller may use it: it belongs to its table's application. What every use case of a partition asks
 * first, in the session or transaction of its work.
 */
@ApplicationScoped
public class PartitionAccess {

    private final PartitionRepository partitions;
    private final AccessChecks access;

    public PartitionAccess(PartitionRepository partitions, AccessChecks access) {
        this.partitions = partitions;
        this.access = access;
    }

    /**
     * The partition, when {@code caller} holds {@code permission} on its table's application: 314 when it does not
     * exist or the caller may not read it, 403 (code 14) when it may read it but lacks the permission.
     */
    public Uni<Partition> require(Caller caller, long partitionId, Permission permission) {
        Supplier<ApiException> unknown = () -> UNKNOWN_PARTITION.exception("partition " + partitionId
                + " does not exist");
        return partitions.find(partitionId).map(found -> found.orElseThrow(unknown))
                .call(p -> access.require(caller, p.applicationId(), permission, "partition " + partitionId, unknown));
    }
}
