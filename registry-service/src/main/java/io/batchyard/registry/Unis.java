package io.batchyard.registry;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Composition of Unis that share one session: a session runs one statement at a time, so steps never overlap. */
public final class Unis {

    private Unis() {
    }

    /** Applies {@code step} to each item in order, starting the next only when the previous one has finished. */
    public static <T, R> Uni<List<R>> sequentially(Iterable<T> items, Function<? super T, Uni<? extends R>> step) {
        Uni<List<R>> results = Uni.createFrom().item(ArrayList::new);
        for (T item : items) {
            results = results.chain(done -> step.apply(item).map(r -> {
                done.add(r);
                return done;
            }));
        }
        return results;
    }
}
