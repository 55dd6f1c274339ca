package io.batchyard.queue.compaction;

import static io.batchyard.queue.compaction.error.CompactionError.INVALID_OBJECT_KEY;
import static io.batchyard.queue.compaction.error.CompactionError.OBJECT_KEY_OUTSIDE_TABLE;
import static io.batchyard.queue.compaction.error.CompactionError.OBJECT_MISSING;
import static io.batchyard.queue.compaction.error.CompactionError.OUTSIDE_ACCEPTANCE_WINDOW;
import static io.batchyard.queue.compaction.error.CompactionError.SYMBOLIC_LINK;
import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_TABLE;
import static io.batchyard.queue.compaction.error.CompactionError.TABLE_DROPPED;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.queue.ObjectCreated;
import io.batchyard.persistence.Blocking;
import io.batchyard.queue.access.AccessChecks;
import io.batchyard.queue.compaction.merge.MergeJobService;
import io.batchyard.queue.compaction.partition.PartitionService;
import io.batchyard.queue.compaction.partition.SmallObject;
import io.batchyard.queue.compaction.partition.SmallObjectService;
import io.batchyard.queue.compaction.store.LinkRefusedException;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.store.StoreAvailability;
import io.batchyard.queue.compaction.table.CompactionTable;
import io.batchyard.queue.compaction.table.TableService;
import io.batchyard.queue.compaction.table.TableSettings;
import io.batchyard.queue.clock.ServiceClock;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Registers a small object that a producer wrote (for REST and the ObjectCreated topic alike), idempotently per
 * (table, date, object key): a second registration returns the first one's row and changes nothing.
 *
 * <p>The object is placed under its deterministic live/ or delayed/ key <em>before</em> the row commits (on a worker
 * thread, inside the transaction), so a committed row always has its file; a crash in between leaves an unreferenced
 * file under an id that is never reused.
 *
 * <p>The service reads the key for the producer, with its own access to the store, so the key must lie in the table's
 * own folder ({@link ObjectKeys#tableFolder}) and lead through no symbolic link: any other key would have the service
 * copy, merge and publish another table's objects, or any file it can open, into the table. Over REST the caller needs
 * execute permission on the table's application.
 */
@ApplicationScoped
public class ObjectRegistrationService {

    private static final Logger LOG = Logger.getLogger(ObjectRegistrationService.class);
    static final String CONSUMER = "queue-compaction-objects";
    /** Registrations Batchyard makes itself: {@code ObjectCreated} events, whose producers the broker authorises. */
    private static final Caller SYSTEM = Caller.system("queue-service");

    /** The outcome: the object's row, whether this call created it, and where it is stored. */
    public record Registered(SmallObject object, boolean created, String storageKey) {
    }

    private final ObjectStores stores;
    private final TableService tables;
    private final PartitionService partitions;
    private final SmallObjectService objects;
    private final MergeJobService jobs;
    private final UnknownObjectRepository unknown;
    private final ProcessedEventLedger ledger;
    private final TableSettings.Defaults defaults;
    private final ServiceClock clock;
    private final OperatorRepository operator;
    private final AccessChecks access;

    public ObjectRegistrationService(ObjectStores stores, TableService tables, PartitionService partitions,
                                     SmallObjectService objects, MergeJobService jobs,
                                     UnknownObjectRepository unknown, ProcessedEventLedger ledger,
                                     TableSettings.Defaults defaults, ServiceClock clock, OperatorRepository operator,
                                     AccessChecks access) {
        this.access = access;
        this.operator = operator;
        this.defaults = defaults;
        this.clock = clock;
        this.stores = stores;
        this.tables = tables;
        this.partitions = partitions;
        this.objects = objects;
        this.jobs = jobs;
        this.unknown = unknown;
        this.ledger = ledger;
    }

    /** Batchyard's own registration (no caller to check). */
    @WithTransaction
    public Uni<Registered> register(String schema, String table, LocalDate date, String objectKey) {
        return registerInTransaction(SYSTEM, schema, table, date, objectKey);
    }

    /**
     * A registration for {@code caller}: execute permission on the table's application; a table the caller may not
     * read answers 311, as one that does not exist.
     */
    @WithTransaction
    public Uni<Registered> register(Caller caller, String schema, String table, LocalDate date, String objectKey) {
        return registerInTransaction(caller, schema, table, date, objectKey);
    }

    /**
     * An ObjectCreated event, once (ledger in the same transaction); false for a duplicate delivery. An object that
     * cannot be routed (unknown table, missing file, bad key) is quarantined in {@code unknown_object} instead of
     * being redelivered forever.
     */
    @WithTransaction
    public Uni<Boolean> apply(ObjectCreated e) {
        return ledger.once(CONSUMER, e, () -> registerInTransaction(SYSTEM, e.getSchemaName(), e.getTableName(),
                e.getPartitionDate(), e.getObjectKey())
                .onFailure(ApiException.class).recoverWithUni(refused -> {
                    String reason = ((ApiException) refused).title();
                    LOG.warnf("object %s for %s.%s quarantined: %s", e.getObjectKey(), e.getSchemaName(),
                            e.getTableName(), reason);
                    return unknown.quarantine(e.getObjectKey(), e.getSchemaName(), e.getTableName(), reason)
                            .replaceWith((Registered) null);
                }));
    }

    private Uni<Registered> registerInTransaction(Caller caller, String schema, String table, LocalDate date,
                                                  String objectKey) {
        try {
            // the filesystem store's rule is the stricter one (it also refuses its temporary names): one rule for all
            stores.filesystem().checkKey(objectKey);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(INVALID_OBJECT_KEY.exception(e.getMessage()));
        }
        Supplier<ApiException> unknownTable = () -> UNKNOWN_TABLE.exception("no compaction table " + schema + "."
                + table);
        return tables.find(schema, table)
                .map(found -> found.orElseThrow(unknownTable))
                .call(t -> access.require(caller, t.applicationId(), Permission.EXECUTE,
                        "compaction table " + t.tableId(), unknownTable))
                .invoke(t -> {
                    if (!ObjectKeys.inTableFolder(objectKey, schema, table)) {
                        throw OBJECT_KEY_OUTSIDE_TABLE.exception("object key " + objectKey + " is not in the folder "
                                + ObjectKeys.tableFolder(schema, table) + " of table " + schema + "." + table);
                    }
                })
                .call(t -> operator.dropped(t.tableId()).invoke(dropped -> {
                    if (dropped) {
                        throw TABLE_DROPPED.exception("table " + schema + "." + table + " was dropped by an operator");
                    }
                }))
                .chain(t -> {
                    TableSettings.Effective settings = t.settings().effective(defaults, t.zoneOffsetMinutes());
                    LocalDate today = clock.today(settings.zone());
                    checkAccepted(settings, today, date);
                    return partitions.findOrCreate(t.tableId(), date)
                            .call(partitions::lockShared)
                            .chain(partitionId -> objects.find(partitionId, objectKey).chain(existing -> existing.isPresent()
                                    ? Uni.createFrom().item(new Registered(existing.get(), false,
                                            storageKey(schema, table, date, existing.get())))
                                    : hold(settings, date, partitionId).chain(hold ->
                                            place(t, partitionId, schema, table, date, objectKey, hold))));
                })
                .onFailure(LinkRefusedException.class).transform(e -> SYMBOLIC_LINK.exception(e.getMessage()));
    }

    /** The acceptance window, in days around today in the table's zone; an unset side is unbounded. */
    private static void checkAccepted(TableSettings.Effective s, LocalDate today, LocalDate date) {
        if (s.acceptancePastDays() != null && date.isBefore(today.minusDays(s.acceptancePastDays()))
                || s.acceptanceFutureDays() != null && date.isAfter(today.plusDays(s.acceptanceFutureDays()))) {
            throw OUTSIDE_ACCEPTANCE_WINDOW.exception("partition date " + date + " is outside [today - "
                    + s.acceptancePastDays() + " d, today + " + s.acceptanceFutureDays() + " d] (today " + today + " in "
                    + s.timeZone() + ")");
        }
    }

    /**
     * Whether the arrival makes a merge job: only inside the table's mergeable window. Outside it the object is held:
     * late when its partition is published already and its date lies behind the window (a published manifest that
     * old changes only by an operator's rebuild), else waiting for the window to reach its partition. Decided under
     * the partition's shared lock, which a publish waits for, after the idempotency lookup: registering an already
     * registered object again answers its row as it was.
     */
    private Uni<SmallObject.Hold> hold(TableSettings.Effective s, LocalDate date, long partitionId) {
        return switch (s.window(date, clock.instant())) {
            case INSIDE -> Uni.createFrom().nullItem();
            case AHEAD -> Uni.createFrom().item(SmallObject.Hold.WAITING);
            case BEHIND -> partitions.find(partitionId).map(Optional::orElseThrow)
                    .map(p -> p.currentManifestVersion() >= 0 ? SmallObject.Hold.LATE : SmallObject.Hold.WAITING);
        };
    }

    private Uni<Registered> place(CompactionTable t, long partitionId, String schema, String table, LocalDate date,
                                  String objectKey, SmallObject.Hold hold) {
        StoreAvailability.require(stores, t.store(), "table " + schema + "." + table);
        ObjectStore store = stores.of(t.store());
        return Blocking.blocking(() -> store.exists(objectKey) ? store.size(objectKey) : -1L).chain(length -> {
            if (length < 0) {
                throw OBJECT_MISSING.exception("object " + objectKey + " is not in the object store");
            }
            return objects.insert(partitionId, objectKey, length, hold);
        }).chain(inserted -> {
            if (inserted.isEmpty()) { // a concurrent registration of the same object committed first
                return objects.find(partitionId, objectKey).map(first -> new Registered(first.orElseThrow(), false,
                        storageKey(schema, table, date, first.get())));
            }
            String key = storageKey(schema, table, date, inserted.get());
            return Blocking.blocking(() -> copy(store, objectKey, key))
                    .chain(() -> hold != null ? Uni.createFrom().voidItem()
                            : jobs.enqueue(partitionId, clock.now().plus(t.mergeInterval())).replaceWithVoid())
                    .replaceWith(new Registered(inserted.get(), true, key));
        });
    }

    private static Void copy(ObjectStore store, String objectKey, String key) {
        try {
            store.copy(objectKey, key);
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot place object " + objectKey, e);
        }
    }

    private static String storageKey(String schema, String table, LocalDate date, SmallObject o) {
        return ObjectKeys.smallObject(ObjectKeys.tablePrefix(schema, table), date, o.objectId(), o.delayed());
    }
}
