package io.batchyard.eventing;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The payloads of a polled batch, in the order they were polled, each with the scope its record is processed in (its
 * processing span current, its log entries set). {@link io.batchyard.eventing.consumer.RecordProcessor#processBatch}
 * hands one to the consumer's service, which passes it on to {@link ProcessedEventLedger#onceAll}; the ledger runs
 * each event's effect in that event's scope, so what the effect logs and appends belongs to its own record. The scopes
 * travel with the payloads instead of being looked up, so nothing outlives the batch.
 *
 * @param <T> the payloads' type
 */
public final class RecordBatch<T> {

    /** Where one record's work runs. */
    public interface Scope {
        <R> Uni<R> around(Supplier<? extends Uni<R>> work);
    }

    private static final Scope NONE = new Scope() {
        @Override
        public <R> Uni<R> around(Supplier<? extends Uni<R>> work) {
            return Uni.createFrom().deferred(work::get);
        }
    };

    private final List<T> payloads;
    private final List<Scope> scopes;

    private RecordBatch(List<T> payloads, List<Scope> scopes) {
        this.payloads = Collections.unmodifiableList(payloads);
        this.scopes = scopes;
    }

    /** Payloads whose work needs no scope of its own (a caller outside a consumer, a test). */
    public static <T> RecordBatch<T> of(List<T> payloads) {
        return new RecordBatch<>(new ArrayList<>(payloads), Collections.nCopies(payloads.size(), NONE));
    }

    /** Payloads and, at the same positions, their records' scopes. */
    public static <T> RecordBatch<T> scoped(List<T> payloads, List<? extends Scope> scopes) {
        if (payloads.size() != scopes.size()) {
            throw new IllegalArgumentException(payloads.size() + " payloads but " + scopes.size() + " scopes");
        }
        return new RecordBatch<>(new ArrayList<>(payloads), List.copyOf(scopes));
    }

    /** The payloads in polled order, unmodifiable. */
    public List<T> payloads() {
        return payloads;
    }

    public int size() {
        return payloads.size();
    }

    public T get(int index) {
        return payloads.get(index);
    }

    /** The payloads {@code keep} accepts, in the same order, each still with its scope. */
    public RecordBatch<T> filter(Predicate<? super T> keep) {
        List<T> kept = new ArrayList<>();
        List<Scope> keptScopes = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            if (keep.test(payloads.get(i))) {
                kept.add(payloads.get(i));
                keptScopes.add(scopes.get(i));
            }
        }
        return new RecordBatch<>(kept, List.copyOf(keptScopes));
    }

    /** Runs {@code work} in the scope of the payload at {@code index}. */
    public <R> Uni<R> around(int index, Supplier<? extends Uni<R>> work) {
        return scopes.get(index).around(work);
    }
}
