package io.batchyard.queue.compaction.operator;

import static io.batchyard.queue.compaction.CompactionError.UNKNOWN_TABLE;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.queue.compaction.AuditEntry;
import io.batchyard.queue.compaction.ObjectRegistrationService;
import io.batchyard.queue.compaction.OperatorRepository;
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

/**
 * Operator actions on compaction (issue 18 item 4), each idempotent and audited in {@code compaction_audit}: dropping a
 * table (merges and registrations stop; rows and files stay) and replaying registrations from a list of object keys.
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

    private final OperatorRepository repository;
    private final ObjectRegistrationService registration;
    private final MeterRegistry meters;

    public OperatorService(OperatorRepository repository, ObjectRegistrationService registration, MeterRegistry meters) {
        this.repository = repository;
        this.registration = registration;
        this.meters = meters;
    }

    @WithTransaction
    public Uni<Dropped> dropTable(String actor, long tableId) {
        return repository.markDropped(tableId).chain(found -> {
            boolean now = found.orElseThrow(() -> UNKNOWN_TABLE.exception("no compaction table " + tableId));
            Uni<Integer> removed = now ? repository.deleteIdleJobs(tableId) : Uni.createFrom().item(0);
            return removed.chain(n -> repository.audit(actor, "DROP_TABLE", "table " + tableId, now ? "DONE" : "ALREADY",
                    now ? n + " idle merge job(s) removed" : "already dropped")
                    .map(audited -> new Dropped(tableId, now, n)));
        }).invoke(d -> count("DROP_TABLE", d.droppedNow() ? "DONE" : "ALREADY"));
    }

    /**
     * Registers each distinct key in turn, each in its own transaction (as a REST registration would), so that one
     * refused key does not undo the others; a key registered before is a no-op. The audit row follows in a
     * transaction of its own.
     */
    public Uni<Replayed> replay(String actor, String schema, String table, LocalDate date, List<String> keys) {
        List<KeyOutcome> outcomes = new ArrayList<>();
        Uni<Void> each = Uni.createFrom().voidItem();
        for (String key : new LinkedHashSet<>(keys)) {
            each = each.chain(() -> registration.register(schema, table, date, key)
                    .map(r -> new KeyOutcome(key, r.created() ? "REGISTERED" : "ALREADY_KNOWN", r.object().objectId(),
                            null, null))
                    .onFailure(ApiException.class).recoverWithItem(e -> new KeyOutcome(key, "REFUSED", null,
                            ((ApiException) e).code(), e.getMessage()))
                    .invoke(outcomes::add).replaceWithVoid());
        }
        return each.map(done -> {
            int registered = (int) outcomes.stream().filter(o -> o.outcome().equals("REGISTERED")).count();
            int refused = (int) outcomes.stream().filter(o -> o.outcome().equals("REFUSED")).count();
            return new Replayed(registered, outcomes.size() - registered - refused, refused, List.copyOf(outcomes));
        }).call(r -> {
            String result = r.refused() > 0 ? "PARTIAL" : r.registered() > 0 ? "DONE" : "ALREADY";
            count("REPLAY_REGISTRATION", result);
            String detail = r.registered() + " registered, " + r.alreadyKnown() + " already known, " + r.refused()
                    + " refused" + (r.refused() == 0 ? "" : ": " + r.keys().stream().filter(k -> k.code() != null)
                    .map(k -> k.objectKey() + " (" + k.code() + ")").toList());
            return Panache.withTransaction(() -> repository.audit(actor, "REPLAY_REGISTRATION",
                    truncate("table " + schema + "." + table + " " + date, 512), result, truncate(detail, 2000)));
        });
    }

    @WithSession
    public Uni<Page<AuditEntry>> audits(PageRequest page) {
        return repository.audits(page.limit(), page.offset())
                .chain(items -> repository.auditCount().map(total -> Page.of(items, total, page)));
    }

    private void count(String action, String result) {
        Counter.builder(ACTIONS).description("Operator actions on compaction, by action and result")
                .tag("action", action).tag("result", result).register(meters).increment();
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
