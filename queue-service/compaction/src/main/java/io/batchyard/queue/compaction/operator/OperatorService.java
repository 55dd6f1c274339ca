package io.batchyard.queue.compaction.operator;

import static io.batchyard.queue.compaction.error.CompactionError.IDEMPOTENCY_KEY_REUSED;
import static io.batchyard.queue.compaction.error.CompactionError.MERGE_RUNNING;
import static io.batchyard.queue.compaction.error.CompactionError.NOTHING_TO_REBUILD;
import static io.batchyard.queue.compaction.error.CompactionError.PARTITION_NOT_SWITCHED;
import static io.batchyard.queue.compaction.error.CompactionError.TABLE_DROPPED;
import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_PARTITION;
import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_TABLE;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.Blocking;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.access.AccessChecks;
import io.batchyard.queue.clock.ServiceClock;
import io.batchyard.queue.compaction.AuditEntry;
import io.batchyard.queue.compaction.ObjectRegistrationService;
import io.batchyard.queue.compaction.OperatorRepository;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.merge.RangeService;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionService;
import io.batchyard.queue.compaction.partition.SmallObject;
import io.batchyard.queue.compaction.partition.SmallObjectService;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.store.StoreAvailability;
import io.batchyard.queue.compaction.table.CompactionTable;
import io.batchyard.queue.compaction.table.TableService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Operator actions on compaction (issue 18 item 4), each idempotent and audited in {@code compaction_audit}: dropping a
 * table (merges and registrations stop; rows and files stay), replaying registrations from a list of object keys, and
 * rebuilding a partition from its small objects. Replays and rebuilds need execute permission on the table's
 * application; the audit lists each caller the actions on tables it may read.
 */
@ApplicationScoped
public class OperatorService {

    public static final String ACTIONS = "batchyard_compaction_operator_actions_total";

    /** A drop's outcome: whether this call dropped the table, and how many idle merge jobs went with it. */
    public record Dropped(long tableId, boolean droppedNow, int jobsRemoved) {
    }

    /** One replayed key: REGISTERED, ALREADY_KNOWN, or REFUSED with the code and detail registration answered. */
    public record KeyOutcome(String objectKey, String outcome, Long objectId, Integer code, String detail) {
    }

    public record Replayed(int registered, int alreadyKnown, int refused, List<KeyOutcome> keys) {
    }

    /**
     * A rebuild's outcome: whether this call started one, how many objects it merges again, the version readers use
     * meanwhile, and the version from which on they read the rebuilt partition (the published version reaches at
     * least this once the rebuild is done; null only for a partition never rebuilt).
     */
    public record Rebuilt(long partitionId, boolean rebuiltNow, int objects, long publishedVersion, Long targetVersion) {
    }

    static final String REBUILD = "REBUILD_PARTITION";

    private static final Logger LOG = Logger.getLogger(OperatorService.class);

    /** An object a rebuild renumbered, with its stored copies before and after. */
    private record Move(ObjectStore store, String from, String to) {
    }

    /** An included object's row before a rebuild gave it a fresh id, and after. */
    private record Renumbered(SmallObject before, SmallObject after) {
    }

    private final OperatorRepository repository;
    private final ObjectRegistrationService registration;
    private final MeterRegistry meters;
    private final PartitionService partitions;
    private final SmallObjectService objects;
    private final RangeService ranges;
    private final MergeJobService jobs;
    private final ObjectStores stores;
    private final ServiceClock clock;
    private final TableService tables;
    private final AccessChecks access;

    public OperatorService(OperatorRepository repository, ObjectRegistrationService registration, MeterRegistry meters,
                           PartitionService partitions, SmallObjectService objects, RangeService ranges,
                           MergeJobService jobs, ObjectStores stores, ServiceClock clock, TableService tables,
                           AccessChecks access) {
        this.tables = tables;
        this.access = access;
        this.repository = repository;
        this.registration = registration;
        this.meters = meters;
        this.partitions = partitions;
        this.objects = objects;
        this.ranges = ranges;
        this.jobs = jobs;
        this.stores = stores;
        this.clock = clock;
    }

    @WithTransaction
    public Uni<Dropped> dropTable(String actor, long tableId) {
        return repository.markDropped(tableId).chain(found -> {
            boolean now = found.orElseThrow(() -> UNKNOWN_TABLE.exception("no compaction table " + tableId));
            Uni<Integer> removed = now ? repository.deleteIdleJobs(tableId) : Uni.createFrom().item(0);
            return removed.chain(n -> repository.audit(actor, "DROP_TABLE", "table " + tableId, tableId,
                    now ? "DONE" : "ALREADY", now ? n + " idle merge job(s) removed" : "already dropped")
                    .map(audited -> new Dropped(tableId, now, n)));
        }).invoke(d -> count("DROP_TABLE", d.droppedNow() ? "DONE" : "ALREADY"));
    }

    /**
     * Registers each distinct key in turn, each in its own transaction (as a REST registration would, with the same
     * checks), so that one refused key does not undo the others; a key registered before is a no-op. The table must
     * be one the caller holds execute permission on (311 when it may not read it, as for a table that does not exist),
     * checked before any key. The audit row follows in a transaction of its own.
     */
    public Uni<Replayed> replay(Caller caller, String schema, String table, LocalDate date, List<String> keys) {
        Supplier<ApiException> unknown = () -> UNKNOWN_TABLE.exception("no compaction table " + schema + "." + table);
        return Panache.withSession(() -> tables.find(schema, table).map(found -> found.orElseThrow(unknown))
                        .call(t -> access.require(caller, t.applicationId(), Permission.EXECUTE,
                                "compaction table " + t.tableId(), unknown)))
                .chain(t -> replay(caller, t, date, keys));
    }

    private Uni<Replayed> replay(Caller caller, CompactionTable t, LocalDate date, List<String> keys) {
        String schema = t.schemaName();
        String table = t.tableName();
        return InOrder.map(new LinkedHashSet<>(keys), key -> registration.register(caller, schema, table, date, key)
                .map(r -> new KeyOutcome(key, r.created() ? "REGISTERED" : "ALREADY_KNOWN", r.object().objectId(),
                        null, null))
                .onFailure(ApiException.class).recoverWithItem(e -> new KeyOutcome(key, "REFUSED", null,
                        ((ApiException) e).code(), e.getMessage()))).map(outcomes -> {
            int registered = (int) outcomes.stream().filter(o -> o.outcome().equals("REGISTERED")).count();
            int refused = (int) outcomes.stream().filter(o -> o.outcome().equals("REFUSED")).count();
            return new Replayed(registered, outcomes.size() - registered - refused, refused, List.copyOf(outcomes));
        }).call(r -> {
            String result = r.refused() > 0 ? "PARTIAL" : r.registered() > 0 ? "DONE" : "ALREADY";
            count("REPLAY_REGISTRATION", result);
            String detail = r.registered() + " registered, " + r.alreadyKnown() + " already known, " + r.refused()
                    + " refused" + (r.refused() == 0 ? "" : ": " + r.keys().stream().filter(k -> k.code() != null)
                    .map(k -> k.objectKey() + " (" + k.code() + ")").toList());
            return Panache.withTransaction(() -> repository.audit(caller.name(), "REPLAY_REGISTRATION",
                    truncate("table " + schema + "." + table + " " + date, 512), t.tableId(), result,
                    truncate(detail, 2000)));
        });
    }

    /**
     * Rebuilds a switched partition from its small objects: every object but the quarantined and dropped ones
     * (released ones included, and late ones, which only a rebuild takes in) gets a fresh id from the sequence, in id
     * order, and its stored copy is placed under that id before the transaction commits (as at registration); the
     * range chain goes back to its sentinel and a merge is due at once. The ordinary merges then write the rebuilt chain under new keys (new ids, new names; the durability
     * rule is theirs), and the catalog publishes it as one manifest whose version (its last id) is above every version
     * published before; until the chain reaches {@code targetVersion} nothing of it is published and readers keep the
     * old manifest, whose objects stay. Each object's records are in exactly one range of the new chain: the old ranges
     * are gone, and a new range covers an old id only with no bytes (an excluded object's).
     *
     * <p>A partition not switched yet is refused (331) unless it holds late objects: those are taken in
     * ({@link #letIn}).
     *
     * <p>Idempotent: a request with an {@code idempotencyKey} that already rebuilt this partition, or any request while
     * the partition's last rebuild is not published yet, changes nothing and answers {@code rebuiltNow} false.
     *
     * <p>Execute permission on the partition's table's application, checked first in the rebuild's transaction (314
     * when the caller may not read it, as for a partition that does not exist).
     *
     * <p>Not {@code @WithTransaction}: the stored copies placed inside the transaction are removed after it, and which
     * ones (the new copies on a failure, the old ones on a commit) is known only once its outcome is, so the
     * transaction is this method's inner {@code Panache.withTransaction} and the clean-up is chained after it.
     */
    public Uni<Rebuilt> rebuild(Caller caller, long partitionId, String idempotencyKey) {
        String actor = caller.name();
        String target = "partition " + partitionId;
        List<Move> moved = new ArrayList<>();
        Supplier<ApiException> unknown = () -> UNKNOWN_PARTITION.exception("no partition " + partitionId);
        return Panache.withTransaction(() -> repository.lockForRebuild(partitionId).map(found -> found
                        .orElseThrow(unknown))
                .call(check -> access.require(caller, check.applicationId(), Permission.EXECUTE, target, unknown))
                .chain(check -> rebuildChecked(check, partitionId, actor, idempotencyKey, moved)))
                .onFailure().call(e -> moved.isEmpty() ? Uni.createFrom().voidItem()
                        // the rows were not renumbered: the new copies name nothing, and a live folder holds each
                        // object once
                        : Blocking.blocking(() -> remove(partitionId, moved, false)))
                .call(r -> !r.rebuiltNow() ? Uni.createFrom().voidItem()
                        // committed: the old copies name nothing any more (their ids were renumbered)
                        : Blocking.blocking(() -> remove(partitionId, moved, true)))
                .invoke(r -> count(REBUILD, r.rebuiltNow() ? "DONE" : "ALREADY"));
    }

    /** A rebuild of a partition its caller may rebuild, with the partition locked: the checks, then the work. */
    private Uni<Rebuilt> rebuildChecked(OperatorRepository.RebuildCheck check, long partitionId, String actor,
                                        String idempotencyKey, List<Move> moved) {
        String target = "partition " + partitionId;
        Uni<Optional<String>> keyed = idempotencyKey == null ? Uni.createFrom().item(Optional.empty())
                : repository.keyedTarget(REBUILD, idempotencyKey);
        return keyed.chain(previous -> {
            if (previous.isPresent() && !previous.get().equals(target)) {
                throw IDEMPOTENCY_KEY_REUSED.exception("Idempotency-Key " + idempotencyKey + " rebuilt "
                        + previous.get() + ", not " + target);
            }
            if (previous.isPresent() || check.pending()) {
                Rebuilt same = new Rebuilt(partitionId, false, 0, check.currentVersion(), check.rebuildTarget());
                return repository.audit(actor, REBUILD, target, check.tableId(), "ALREADY", previous.isPresent()
                                ? "repeat of the request with this Idempotency-Key"
                                : "a rebuild to version " + check.rebuildTarget() + " is pending", idempotencyKey)
                        .replaceWith(same);
            }
            if (check.tableDropped()) {
                throw TABLE_DROPPED.exception("the table of partition " + partitionId + " is dropped");
            }
            if (!check.switched()) {
                return objects.late(partitionId).chain(late -> {
                    if (late.isEmpty()) {
                        throw PARTITION_NOT_SWITCHED.exception("partition " + partitionId + " is not switched yet and"
                                + " has no late object: its readers still read the live prefix and its merges go on");
                    }
                    return noMergeRunning(partitionId).chain(() -> partitions.find(partitionId)
                            .map(Optional::orElseThrow)
                            .chain(p -> letIn(p, late, moved, check, actor, idempotencyKey)));
                });
            }
            return noMergeRunning(partitionId).chain(() -> partitions.find(partitionId).map(Optional::orElseThrow)
                    .chain(p -> renumber(p, moved, check, actor, idempotencyKey)));
        });
    }

    /** Locks the partition's merge jobs against a claim; 332 while one is running or dead-lettered. */
    private Uni<Void> noMergeRunning(long partitionId) {
        return jobs.lockStates(partitionId).invoke(states -> {
            if (states.contains("ONGOING") || states.contains("DEAD")) {
                throw MERGE_RUNNING.exception("partition " + partitionId + " has a merge job "
                        + (states.contains("DEAD") ? "dead-lettered (retry it first)" : "running (retry later)"));
            }
        }).replaceWithVoid();
    }

    /**
     * A partition not switched yet has no manifest to replace: its readers read the live prefix until the ordinary
     * merges reach its last live object. Its late objects (stored under delayed/, which that prefix does not show) are
     * taken in: each gets a fresh id above every range and is held no longer, and a merge is due at once, so the
     * merges include them and the partition switches and publishes as any other. Its live objects are not renumbered:
     * new copies in the live prefix would show its readers each of them twice until the old ones were removed.
     */
    private Uni<Rebuilt> letIn(Partition p, List<SmallObject> late, List<Move> moved,
                               OperatorRepository.RebuildCheck check, String actor, String idempotencyKey) {
        StoreAvailability.require(stores, p.store(), "the table of partition " + p.partitionId());
        ObjectStore store = stores.of(p.store());
        List<Renumbered> pairs = new ArrayList<>();
        return InOrder.each(late, o -> objects.renumber(o.objectId()).invoke(n -> pairs.add(new Renumbered(o, n))))
                .chain(() -> Blocking.blocking(() -> place(store, p, pairs, moved)))
                .chain(() -> jobs.enqueue(p.partitionId(), clock.now()))
                .chain(() -> jobs.dueBy(p.partitionId(), clock.now()))
                .chain(() -> repository.audit(actor, REBUILD, "partition " + p.partitionId(), p.tableId(), "DONE",
                        pairs.size() + " late object(s) taken into the merges of the partition, which is not switched"
                                + " yet", idempotencyKey))
                .map(audited -> new Rebuilt(p.partitionId(), true, pairs.size(), check.currentVersion(),
                        check.rebuildTarget()));
    }

    private Uni<Rebuilt> renumber(Partition p, List<Move> moved, OperatorRepository.RebuildCheck check, String actor,
                                  String idempotencyKey) {
        StoreAvailability.require(stores, p.store(), "the table of partition " + p.partitionId());
        ObjectStore store = stores.of(p.store());
        return objects.rebuildable(p.partitionId()).chain(included -> {
            if (included.isEmpty()) {
                throw NOTHING_TO_REBUILD.exception("every object of partition " + p.partitionId()
                        + " is quarantined or dropped");
            }
            List<Renumbered> pairs = new ArrayList<>();
            return InOrder.each(included, o -> objects.renumber(o.objectId()).invoke(n -> pairs.add(new Renumbered(o, n))))
                    .chain(() -> Blocking.blocking(() -> place(store, p, pairs, moved)))
                    .chain(() -> ranges.reset(p.partitionId()))
                    .chain(() -> {
                        long newTarget = pairs.get(pairs.size() - 1).after().objectId();
                        Rebuilt done = new Rebuilt(p.partitionId(), true, pairs.size(), check.currentVersion(), newTarget);
                        return partitions.markRebuild(p.partitionId(), newTarget)
                                .chain(() -> jobs.enqueue(p.partitionId(), clock.now()))
                                .chain(() -> jobs.dueBy(p.partitionId(), clock.now()))
                                .chain(() -> repository.audit(actor, REBUILD, "partition " + p.partitionId(),
                                        p.tableId(), "DONE",
                                        pairs.size() + " object(s) merged again; version " + check.currentVersion()
                                                + " stays published until version " + newTarget + " or later is",
                                        idempotencyKey))
                                .replaceWith(done);
                    });
        });
    }

    /**
     * Places each renumbered object's stored copy under its new id (a link or server-side copy). A copy that is already
     * gone is left for the merge, which quarantines a missing object as it always does.
     */
    private static Void place(ObjectStore store, Partition p, List<Renumbered> pairs, List<Move> moved)
            throws java.io.IOException {
        for (Renumbered pair : pairs) {
            String from = key(p, pair.before());
            String to = key(p, pair.after());
            if (store.exists(from)) {
                store.copy(from, to);
                moved.add(new Move(store, from, to));
            }
        }
        return null;
    }

    private static String key(Partition p, SmallObject o) {
        return ObjectKeys.smallObject(p.tablePrefix(), p.partitionDate(), o.objectId(), o.delayed());
    }

    /**
     * Best effort: a copy left behind only names no row (readers of a switched partition read its manifests, not its
     * live folder), so a failure is logged and the outcome stands.
     */
    private static Void remove(long partitionId, List<Move> moved, boolean old) {
        for (Move m : moved) {
            String key = old ? m.from() : m.to();
            try {
                m.store().delete(key);
            } catch (java.io.IOException | RuntimeException e) {
                LOG.warnf("rebuild of partition %d: cannot remove %s: %s", partitionId, key, e.getMessage());
            }
        }
        return null;
    }

    /** Operator actions on the tables of applications the caller may read, newest first. */
    @WithSession
    public Uni<Page<AuditEntry>> audits(Caller caller, PageRequest page) {
        return access.visibility(caller).chain(visible -> repository.audits(visible, page.limit(), page.offset())
                .chain(items -> repository.auditCount(visible).map(total -> Page.of(items, total, page))));
    }

    private void count(String action, String result) {
        Counter.builder(ACTIONS).description("Operator actions on compaction, by action and result")
                .tag("action", action).tag("result", result).register(meters).increment();
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
