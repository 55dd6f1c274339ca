package io.batchyard.eventing;

import io.smallrye.mutiny.Uni;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where each record of a batch being applied runs its effect (its processing span current, its log entries set), by
 * the record's payload. {@link io.batchyard.eventing.consumer.RecordProcessor#processBatch} registers the scopes of a
 * batch while the batch's transaction runs; {@link ProcessedEventLedger#onceAll} enters an event's scope around its
 * effect. Kept here, beside the ledger, so that the ledger does not depend on the consumer package that depends on it.
 */
public final class RecordScopes {

    /** One record's scope. */
    public interface Scope {
        <R> Uni<R> around(Supplier<? extends Uni<R>> work);
    }

    /** The records of the batches being applied, by payload identity. */
    private static final Map<Object, Scope> IN_BATCH = Collections.synchronizedMap(new IdentityHashMap<>());

    private RecordScopes() {
    }

    /**
     * Runs {@code work} in the scope of the record {@code payload} came in, when a batch holding it is being applied;
     * otherwise just runs it (a single record's span and entries are set for the whole of its processing already).
     */
    public static <R> Uni<R> around(Object payload, Supplier<? extends Uni<R>> work) {
        Scope scope = IN_BATCH.get(payload);
        return scope == null ? Uni.createFrom().deferred(work::get) : scope.around(work);
    }

    /** Makes the batch's records' scopes findable by {@link #around} while {@code work} runs. */
    public static Uni<?> during(Map<Object, ? extends Scope> scopes, Supplier<? extends Uni<?>> work) {
        return Uni.createFrom().deferred(() -> {
            IN_BATCH.putAll(scopes);
            return Uni.createFrom().deferred(work::get)
                    .onTermination().invoke(() -> scopes.keySet().forEach(IN_BATCH::remove));
        });
    }
}
